/*
 * Live progress of an evaluation report (evaluation/templates/evaluation/_progress.html).
 *
 * The websocket ws(s)://host/ws/evaluation/runs/<id>/ sends
 * {"type": "progress", "run": {id, status, progress, error, display, urls}} whenever the run changed
 * (protocol in evaluation/consumers.py). The server words everything in run.display; this file only
 * moves text (always textContent) and the bar's width into place, and reloads the page once the
 * report is ready so the server-rendered tables and charts appear. Without JavaScript the page shows
 * the state as of its last load.
 */
(function () {
  "use strict";

  var card = document.getElementById("evaluation-progress");
  if (!card || !("WebSocket" in window)) {
    return;
  }

  var CLOSE_FORBIDDEN = 4403;
  var MAX_BACKOFF_MS = 30000;
  var retries = 0;
  var finished = false;

  function field(name) {
    return card.querySelector('[data-field="' + name + '"]');
  }

  function setText(name, text) {
    var el = field(name);
    if (el) { el.textContent = text || ""; }
  }

  function render(run) {
    var display = run.display || {};
    var percent = Math.max(0, Math.min(100, Number(display.percent) || 0));
    field("bar").style.width = percent + "%";
    card.querySelector('[role="progressbar"]').setAttribute("aria-valuenow", String(Math.round(percent)));
    var status = field("status");
    status.className = "badge badge-status status-" + run.status;
    status.textContent = display.status || run.status;
    setText("progress", display.progress);
    setText("error", run.error);
    field("error").hidden = !run.error;
    if (run.status === "done" && !finished) {
      finished = true;
      field("done").hidden = false;
      // The tables and charts are drawn on the server: show them.
      window.location.reload();
    }
    if (run.status === "failed") {
      finished = true;
    }
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + card.dataset.socketPath);
    socket.onopen = function () {
      retries = 0;
      setText("connection", "Live updates on.");
    };
    socket.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "progress" && message.run) {
        render(message.run);
      } else if (message.type === "error") {
        setText("connection", message.message);
      }
    };
    socket.onclose = function (event) {
      if (event.code === CLOSE_FORBIDDEN || finished) {
        setText("connection", finished ? "" : "Live updates are not available for this report.");
        return;
      }
      var delay = Math.min(MAX_BACKOFF_MS, 1000 * Math.pow(2, retries));
      retries += 1;
      setText("connection", "Live updates paused; reconnecting… (reload the page for the latest state)");
      window.setTimeout(connect, delay);
    };
  }

  connect();
}());
