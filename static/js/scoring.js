/*
 * Live progress of a round's scoring runs (collector/templates/collector/_scoring.html).
 *
 * The websocket ws(s)://host/ws/rounds/<round_id>/scoring/ sends
 * {"type": "scoring", "runs": [{id, kind, status, progress, summary, error, display}]} whenever a
 * run changed, and {"type": "training", "jobs": [{id, name, status, error, display}]} whenever a
 * training job changed (protocol in collector/consumers.py). The server already words everything in
 * run.display, so this file only moves text (always textContent) and widths into place.
 * Without JavaScript the page shows the state as of its last load.
 */
import { connectSocket } from "./lib/socket.js";

function main() {
  const section = document.getElementById("scoring");
  if (!section || !("WebSocket" in window)) {
    return;
  }

  const connectionEl = document.getElementById("scoring-connection");
  const cards = Array.prototype.slice.call(section.querySelectorAll(".scoring-card"));
  const lastStatus = {}; // kind -> status seen last, to notice a run that just finished

  function field(card, name) {
    return card.querySelector('[data-field="' + name + '"]');
  }

  function show(el, visible) {
    if (el) { el.hidden = !visible; }
  }

  function setText(el, text) {
    if (el) { el.textContent = text || ""; }
  }

  function foldItem(bar) {
    const li = document.createElement("li");
    const label = document.createElement("span");
    label.className = "bar-label";
    label.textContent = bar.label;
    const track = document.createElement("span");
    track.className = "bar-track";
    track.setAttribute("aria-hidden", "true");
    const fill = document.createElement("span");
    fill.className = "bar-fill";
    fill.style.width = Number(bar.percent) + "%";
    const chance = document.createElement("span");
    chance.className = "chance-mark";
    track.appendChild(fill);
    track.appendChild(chance);
    const value = document.createElement("span");
    value.className = "bar-value";
    value.textContent = Math.round(Number(bar.percent)) + "%";
    li.appendChild(label);
    li.appendChild(track);
    li.appendChild(value);
    return li;
  }

  const ACTIVE = ["queued", "running"];
  const RESUMABLE = ["cancelled", "failed"];

  // The start button of a kind is disabled while a run of that kind is active; the card's
  // cancel / resume forms point at the shown run (their action built from a template with id 0).
  function renderControls(card, run) {
    const status = run ? run.status : "";
    const active = ACTIVE.indexOf(status) >= 0;
    const startForm = section.querySelector('.scoring-form[data-kind="' + card.dataset.kind + '"]');
    if (startForm) {
      field(startForm, "start").disabled = active;
      show(field(startForm, "busy"), active);
    }
    [["cancel-form", active], ["resume-form", RESUMABLE.indexOf(status) >= 0]].forEach(function (pair) {
      const form = field(card, pair[0]);
      if (!form) { return; }
      if (run) { form.action = form.dataset.actionTemplate.replace("/0/", "/" + run.id + "/"); }
      show(form, pair[1]);
    });
  }

  function renderCard(card, run) {
    renderControls(card, run);
    show(field(card, "empty"), !run);
    show(field(card, "status"), !!run);
    show(field(card, "run-id"), !!run);
    show(field(card, "bar-wrap"), !!run);
    if (!run) {
      return;
    }
    const display = run.display || {};
    const status = field(card, "status");
    status.className = "badge badge-status status-" + run.status;
    setText(status, display.status);
    setText(field(card, "run-id"), "run " + run.id);
    const percent = Math.max(0, Math.min(100, Number(display.percent) || 0));
    field(card, "bar").style.width = percent + "%";
    card.querySelector('[role="progressbar"]').setAttribute("aria-valuenow", String(Math.round(percent)));
    setText(field(card, "progress"), display.progress);
    setText(field(card, "error"), run.error);
    show(field(card, "error"), !!run.error);
    setText(field(card, "result"), display.result);
    show(field(card, "result"), !!display.result);
    setText(field(card, "warning"), display.warning);
    show(field(card, "warning"), !!display.warning);
    const list = field(card, "folds");
    while (list.firstChild) { list.removeChild(list.firstChild); }
    (display.folds || []).forEach(function (bar) { list.appendChild(foldItem(bar)); });
    show(field(card, "folds-figure"), (display.folds || []).length > 0);
    const previous = lastStatus[run.kind];
    show(field(card, "reload"), run.status === "done" && previous !== undefined && previous !== "done");
    lastStatus[run.kind] = run.status;
  }

  function render(runs) {
    cards.forEach(function (card) {
      let run = null;
      runs.forEach(function (candidate) {
        if (candidate.kind === card.dataset.kind) { run = candidate; }
      });
      renderCard(card, run);
    });
  }

  // Training jobs of the "Next round's model" card: rebuilt from {"type": "training", "jobs": [...]}.
  const trainingBox = document.getElementById("training-jobs");

  function jobItem(job) {
    const display = job.display || {};
    const li = document.createElement("li");
    li.className = "training-job";
    const name = document.createElement("strong");
    name.textContent = job.name;
    const badge = document.createElement("span");
    badge.className = "badge badge-status status-" + job.status;
    badge.textContent = display.status || job.status;
    const track = document.createElement("div");
    track.className = "progress-track";
    track.setAttribute("role", "progressbar");
    track.setAttribute("aria-label", "Training " + job.name);
    track.setAttribute("aria-valuemin", "0");
    track.setAttribute("aria-valuemax", "100");
    const percent = Math.max(0, Math.min(100, Number(display.percent) || 0));
    track.setAttribute("aria-valuenow", String(Math.round(percent)));
    const fill = document.createElement("span");
    fill.className = "progress-fill";
    fill.style.width = percent + "%";
    track.appendChild(fill);
    const text = document.createElement("p");
    text.className = "small";
    text.textContent = (display.progress || "") + (display.result ? " " + display.result : "");
    li.appendChild(name);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(badge);
    li.appendChild(track);
    li.appendChild(text);
    if (job.error) {
      const error = document.createElement("p");
      error.className = "notice notice-error";
      error.textContent = job.error;
      li.appendChild(error);
    }
    return li;
  }

  function renderTraining(jobs) {
    if (!trainingBox) { return; }
    const list = trainingBox.querySelector('[data-field="training-list"]');
    while (list.firstChild) { list.removeChild(list.firstChild); }
    jobs.forEach(function (job) { list.appendChild(jobItem(job)); });
    show(trainingBox.querySelector('[data-field="training-empty"]'), jobs.length === 0);
  }

  connectSocket(section.dataset.socketPath, {
    onOpen: function () { setText(connectionEl, "Live updates on."); },
    onMessage: function (message) {
      if (message.type === "scoring" && Array.isArray(message.runs)) {
        render(message.runs);
      } else if (message.type === "training" && Array.isArray(message.jobs)) {
        renderTraining(message.jobs);
      } else if (message.type === "error") {
        setText(connectionEl, message.message);
      }
    },
    onRetry: function () {
      setText(connectionEl, "Live updates paused; reconnecting… (reload the page for the latest state)");
    },
  });
}

main();
