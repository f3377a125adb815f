/*
 * The one renderer of background jobs (core.jobs) on every page: scoring runs and training jobs
 * (round page), evaluation reports, leaderboard evaluations and a project's QA training.
 *
 * A progress websocket sends the jobs' payloads once on connect and again on each change the
 * worker pushes: {"type": "progress", "run": job}, {"type": "scoring", "runs": [job, ...]} or
 * {"type": "training", "jobs": [job, ...]}. A job payload is {id, job, status, error, display}; the
 * server words every text in display (status, progress, result, warning; state is the status or
 * "stalled") and in the data-text-* attributes of the element that follows the jobs
 * (templates/includes/job_live_texts.html), so nothing here is written in English. This module only
 * moves text (always textContent) and widths into place.
 *
 * A card marked data-job-progress (templates/includes/job_progress.html) is followed on its own.
 * When a job the page saw active ends, the page updates what it changed: the regions named in
 * data-refresh (element ids) are fetched again and swapped in, or else the page is reloaded, once
 * per job and browser tab, never in a loop.
 */
import { connectSocket } from "./lib/socket.js";

export const ACTIVE = ["queued", "running"];

/** The job payloads a progress message carries, or null when it is no progress message. */
export function jobsOf(message) {
  if (message && message.run) { return [message.run]; }
  if (message && Array.isArray(message.runs)) { return message.runs; }
  if (message && Array.isArray(message.jobs)) { return message.jobs; }
  return null;
}

/** True when a job seen in status `before` has now ended (`after` is no longer active). */
export function ended(before, after) {
  return ACTIVE.indexOf(before) >= 0 && ACTIVE.indexOf(after) < 0;
}

export function clampPercent(value) {
  return Math.max(0, Math.min(100, Number(value) || 0));
}

function field(root, name) {
  return root.querySelector('[data-field="' + name + '"]');
}

function setText(el, text) {
  if (el) { el.textContent = text || ""; }
}

function showIf(el, visible) {
  if (el) { el.hidden = !visible; }
}

/** Puts one job into `card`'s data-field elements: status badge, bar, progress, error, result, warning. */
export function renderJob(card, job) {
  const display = job.display || {};
  const status = field(card, "status");
  if (status) {
    status.className = "badge badge-status status-" + (display.state || job.status);
    setText(status, display.status || job.status);
    status.hidden = false;
  }
  const percent = clampPercent(display.percent);
  const bar = field(card, "bar");
  if (bar) { bar.style.width = percent + "%"; }
  const track = card.querySelector('[role="progressbar"]');
  if (track) { track.setAttribute("aria-valuenow", String(Math.round(percent))); }
  setText(field(card, "progress"), display.progress);
  for (const name of ["error", "result", "warning"]) {
    const text = name === "error" ? job.error : display[name];
    setText(field(card, name), text);
    showIf(field(card, name), !!text);
  }
}

/**
 * Follows the progress socket at `path` for the element `root` (which holds the data-text-*
 * attributes and a data-field="connection" line): `onJobs(jobs, message)` gets the payloads of each
 * progress message (an empty list too: no job yet).
 * Returns the socket (its close() stops following).
 */
export function followJobs(root, path, onJobs) {
  const texts = root.dataset;
  const connection = field(root, "connection") || document.getElementById(texts.connection || "");
  return connectSocket(path, {
    onOpen: () => setText(connection, texts.textLive),
    onMessage: (message) => {
      if (message.type === "error") {
        setText(connection, message.message);
        return;
      }
      const jobs = jobsOf(message);
      if (jobs !== null) { onJobs(jobs, message); }
    },
    onForbidden: () => setText(connection, texts.textForbidden),
    onRetry: () => setText(connection, texts.textRetry),
  });
}

function reloadOnce(key) {
  const storageKey = "job-progress-reloaded:" + key;
  try {
    if (window.sessionStorage.getItem(storageKey)) { return; }
    window.sessionStorage.setItem(storageKey, "1");
  } catch {
    // No storage (private mode): reloading is still once, as the reloaded page renders the ended job.
  }
  window.location.reload();
}

/**
 * Updates the parts of the page a job that ended changed: the regions named in root's data-refresh
 * are fetched from this page's URL and swapped in (cards inside them are followed); without
 * regions, or when the fetch fails, the page is reloaded once for `key`.
 */
export function refreshAfter(root, key) {
  const connection = field(root, "connection");
  setText(connection, root.dataset.textUpdating);
  const ids = (root.dataset.refresh || "").split(/\s+/).filter(Boolean);
  if (!ids.length) {
    reloadOnce(key);
    return;
  }
  window.fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
    .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
    .then((html) => {
      const fresh = new window.DOMParser().parseFromString(html, "text/html");
      ids.forEach((id) => {
        const now = document.getElementById(id);
        const next = fresh.getElementById(id);
        if (now && next) {
          const adopted = document.importNode(next, true);
          now.replaceWith(adopted);
          followCards(adopted);
        }
      });
      setText(connection, "");
    })
    .catch(() => reloadOnce(key));
}

/** Follows one card made by templates/includes/job_progress.html. */
function followCard(card) {
  if (card.dataset.followed) { return; }
  card.dataset.followed = "true";
  const kind = card.dataset.job;
  const id = Number(card.dataset.jobId);
  let last = card.dataset.status; // as the page was rendered
  const socket = followJobs(card, card.dataset.socketPath, (jobs) => {
    // Only this card's job: a socket of another job (another kind with the same id) is ignored.
    const job = jobs.find((each) => each.id === id && (!each.job || each.job === kind));
    if (!job) { return; }
    renderJob(card, job);
    if (ended(last, job.status)) {
      showIf(field(card, "done"), job.status === "done");
      socket.close();
      refreshAfter(card, kind + ":" + id);
    }
    last = job.status;
  });
}

/** Follows every job card in `root` (the document, or a region just swapped in). */
export function followCards(root) {
  if ("WebSocket" in window) {
    root.querySelectorAll("[data-job-progress]").forEach(followCard);
    if (root.matches && root.matches("[data-job-progress]")) { followCard(root); }
  }
}

followCards(document);
