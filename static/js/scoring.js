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
(function () {
  "use strict";

  var section = document.getElementById("scoring");
  if (!section || !("WebSocket" in window)) {
    return;
  }

  var CLOSE_FORBIDDEN = 4403;
  var MAX_BACKOFF_MS = 30000;
  var connectionEl = document.getElementById("scoring-connection");
  var cards = Array.prototype.slice.call(section.querySelectorAll(".scoring-card"));
  var lastStatus = {}; // kind -> status seen last, to notice a run that just finished
  var retries = 0;
  var stopped = false;

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
    var li = document.createElement("li");
    var label = document.createElement("span");
    label.className = "bar-label";
    label.textContent = bar.label;
    var track = document.createElement("span");
    track.className = "bar-track";
    track.setAttribute("aria-hidden", "true");
    var fill = document.createElement("span");
    fill.className = "bar-fill";
    fill.style.width = Number(bar.percent) + "%";
    var chance = document.createElement("span");
    chance.className = "chance-mark";
    track.appendChild(fill);
    track.appendChild(chance);
    var value = document.createElement("span");
    value.className = "bar-value";
    value.textContent = Math.round(Number(bar.percent)) + "%";
    li.appendChild(label);
    li.appendChild(track);
    li.appendChild(value);
    return li;
  }

  var ACTIVE = ["queued", "running"];
  var RESUMABLE = ["cancelled", "failed"];

  // The start button of a kind is disabled while a run of that kind is active; the card's
  // cancel / resume forms point at the shown run (their action built from a template with id 0).
  function renderControls(card, run) {
    var status = run ? run.status : "";
    var active = ACTIVE.indexOf(status) >= 0;
    var startForm = section.querySelector('.scoring-form[data-kind="' + card.dataset.kind + '"]');
    if (startForm) {
      field(startForm, "start").disabled = active;
      show(field(startForm, "busy"), active);
    }
    [["cancel-form", active], ["resume-form", RESUMABLE.indexOf(status) >= 0]].forEach(function (pair) {
      var form = field(card, pair[0]);
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
    var display = run.display || {};
    var status = field(card, "status");
    status.className = "badge badge-status status-" + run.status;
    setText(status, display.status);
    setText(field(card, "run-id"), "run " + run.id);
    var percent = Math.max(0, Math.min(100, Number(display.percent) || 0));
    field(card, "bar").style.width = percent + "%";
    card.querySelector('[role="progressbar"]').setAttribute("aria-valuenow", String(Math.round(percent)));
    setText(field(card, "progress"), display.progress);
    setText(field(card, "error"), run.error);
    show(field(card, "error"), !!run.error);
    setText(field(card, "result"), display.result);
    show(field(card, "result"), !!display.result);
    setText(field(card, "warning"), display.warning);
    show(field(card, "warning"), !!display.warning);
    var list = field(card, "folds");
    while (list.firstChild) { list.removeChild(list.firstChild); }
    (display.folds || []).forEach(function (bar) { list.appendChild(foldItem(bar)); });
    show(field(card, "folds-figure"), (display.folds || []).length > 0);
    var previous = lastStatus[run.kind];
    show(field(card, "reload"), run.status === "done" && previous !== undefined && previous !== "done");
    lastStatus[run.kind] = run.status;
  }

  function render(runs) {
    cards.forEach(function (card) {
      var run = null;
      runs.forEach(function (candidate) {
        if (candidate.kind === card.dataset.kind) { run = candidate; }
      });
      renderCard(card, run);
    });
  }

  // Training jobs of the "Next round's model" card: rebuilt from {"type": "training", "jobs": [...]}.
  var trainingBox = document.getElementById("training-jobs");

  function jobItem(job) {
    var display = job.display || {};
    var li = document.createElement("li");
    li.className = "training-job";
    var name = document.createElement("strong");
    name.textContent = job.name;
    var badge = document.createElement("span");
    badge.className = "badge badge-status status-" + job.status;
    badge.textContent = display.status || job.status;
    var track = document.createElement("div");
    track.className = "progress-track";
    track.setAttribute("role", "progressbar");
    track.setAttribute("aria-label", "Training " + job.name);
    track.setAttribute("aria-valuemin", "0");
    track.setAttribute("aria-valuemax", "100");
    var percent = Math.max(0, Math.min(100, Number(display.percent) || 0));
    track.setAttribute("aria-valuenow", String(Math.round(percent)));
    var fill = document.createElement("span");
    fill.className = "progress-fill";
    fill.style.width = percent + "%";
    track.appendChild(fill);
    var text = document.createElement("p");
    text.className = "small";
    text.textContent = (display.progress || "") + (display.result ? " " + display.result : "");
    li.appendChild(name);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(badge);
    li.appendChild(track);
    li.appendChild(text);
    if (job.error) {
      var error = document.createElement("p");
      error.className = "notice notice-error";
      error.textContent = job.error;
      li.appendChild(error);
    }
    return li;
  }

  function renderTraining(jobs) {
    if (!trainingBox) { return; }
    var list = trainingBox.querySelector('[data-field="training-list"]');
    while (list.firstChild) { list.removeChild(list.firstChild); }
    jobs.forEach(function (job) { list.appendChild(jobItem(job)); });
    show(trainingBox.querySelector('[data-field="training-empty"]'), jobs.length === 0);
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + section.dataset.socketPath);
    socket.onopen = function () {
      retries = 0;
      setText(connectionEl, "Live updates on.");
    };
    socket.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "scoring" && Array.isArray(message.runs)) {
        render(message.runs);
      } else if (message.type === "training" && Array.isArray(message.jobs)) {
        renderTraining(message.jobs);
      } else if (message.type === "error") {
        setText(connectionEl, message.message);
      }
    };
    socket.onclose = function (event) {
      if (event.code === CLOSE_FORBIDDEN) {
        stopped = true;
        return;
      }
      if (stopped) { return; }
      var delay = Math.min(MAX_BACKOFF_MS, 1000 * Math.pow(2, retries));
      retries += 1;
      setText(connectionEl, "Live updates paused; reconnecting… (reload the page for the latest state)");
      window.setTimeout(connect, delay);
    };
  }

  connect();
}());
