/*
 * Live progress of a round's scoring runs and training jobs (collector/templates/collector/_scoring.html).
 *
 * The websocket ws(s)://host/ws/rounds/<round_id>/scoring/ sends
 * {"type": "scoring", "runs": [{id, kind, status, progress, summary, error, display}]} and
 * {"type": "training", "jobs": [{id, name, status, error, display}]} on connect and whenever the
 * worker pushes a change (protocol in collector/consumers.py). job_progress.js renders each job;
 * this file places them: one card per kind of run (its controls and fold bars too) and the list of
 * training jobs, built from the page's <template>. Every text is worded on the server. When a run
 * ends, the regions named in the section's data-refresh (the round's statistics and questions) are
 * fetched again. Without JavaScript the page shows the state as of its last load.
 */
import { ACTIVE, clampPercent, ended, followJobs, refreshAfter, renderJob } from "./job_progress.js";
import { fmt } from "./lib/i18n.js";

const RESUMABLE = ["cancelled", "failed"];

function field(root, name) {
  return root.querySelector('[data-field="' + name + '"]');
}

function showIf(el, visible) {
  if (el) { el.hidden = !visible; }
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
  fill.style.width = clampPercent(bar.percent) + "%";
  const chance = document.createElement("span");
  chance.className = "chance-mark";
  track.append(fill, chance);
  const value = document.createElement("span");
  value.className = "bar-value";
  value.textContent = Math.round(Number(bar.percent)) + "%";
  li.append(label, track, value);
  return li;
}

function main() {
  const section = document.getElementById("scoring");
  if (!section || !("WebSocket" in window)) {
    return;
  }
  const cards = Array.from(section.querySelectorAll(".scoring-card"));
  const lastStatus = {}; // run id -> status seen last, to notice a run that just ended
  // As the page was rendered: a run that ends after that is noticed even if the socket connects late.
  cards.forEach((card) => { if (card.dataset.runId) { lastStatus[card.dataset.runId] = card.dataset.runStatus; } });

  // The start button of a kind is disabled while a run of that kind is active; the card's
  // cancel / resume forms point at the shown run (their action built from a template with id 0).
  function renderControls(card, run) {
    const status = run ? run.status : "";
    const active = ACTIVE.indexOf(status) >= 0;
    const startForm = section.querySelector('.scoring-form[data-kind="' + card.dataset.kind + '"]');
    if (startForm) {
      field(startForm, "start").disabled = active;
      showIf(field(startForm, "busy"), active);
    }
    [["cancel-form", active], ["resume-form", RESUMABLE.indexOf(status) >= 0]].forEach(([name, visible]) => {
      const form = field(card, name);
      if (!form) { return; }
      if (run) { form.action = form.dataset.actionTemplate.replace("/0/", "/" + run.id + "/"); }
      showIf(form, visible);
    });
  }

  function renderCard(card, run) {
    renderControls(card, run);
    showIf(field(card, "empty"), !run);
    showIf(field(card, "status"), !!run);
    showIf(field(card, "run-id"), !!run);
    showIf(field(card, "bar-wrap"), !!run);
    if (!run) {
      return;
    }
    renderJob(card, run);
    field(card, "run-id").textContent = fmt(section.dataset.textRun, { id: run.id });
    const folds = (run.display || {}).folds || [];
    field(card, "folds").replaceChildren(...folds.map(foldItem));
    showIf(field(card, "folds-figure"), folds.length > 0);
  }

  function renderRuns(runs) {
    const endedNow = [];
    cards.forEach((card) => {
      const run = runs.find((candidate) => candidate.kind === card.dataset.kind) || null;
      renderCard(card, run);
      if (run && ended(lastStatus[run.id], run.status)) { endedNow.push(run.id); }
      if (run) { lastStatus[run.id] = run.status; }
    });
    if (endedNow.length) {
      refreshAfter(section, "collector.scoringrun:" + endedNow.join(","));
    }
  }

  // Training jobs of the "Next round's model" card, each a copy of the page's <template>.
  const trainingBox = document.getElementById("training-jobs");
  const jobTemplate = document.getElementById("training-job-template");

  function jobItem(job) {
    const li = jobTemplate.content.firstElementChild.cloneNode(true);
    field(li, "name").textContent = job.name;
    li.querySelector('[role="progressbar"]').setAttribute("aria-label", fmt(trainingBox.dataset.textLabel, { name: job.name }));
    const display = job.display || {};
    renderJob(li, { ...job, display: { ...display, progress: [display.progress, display.result].filter(Boolean).join(" "),
      result: "" } });
    return li;
  }

  function renderTraining(jobs) {
    if (!trainingBox || !jobTemplate) { return; }
    field(trainingBox, "training-list").replaceChildren(...jobs.map(jobItem));
    showIf(field(trainingBox, "training-empty"), jobs.length === 0);
  }

  followJobs(section, section.dataset.socketPath, (jobs, message) => {
    if (message.type === "scoring") {
      renderRuns(jobs);
    } else if (message.type === "training") {
      renderTraining(jobs);
    }
  });
}

main();
