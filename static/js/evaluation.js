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
import { connectSocket } from "./lib/socket.js";

function main() {
  const card = document.getElementById("evaluation-progress");
  if (!card || !("WebSocket" in window)) {
    return;
  }

  let finished = false;

  function field(name) {
    return card.querySelector('[data-field="' + name + '"]');
  }

  function setText(name, text) {
    const el = field(name);
    if (el) { el.textContent = text || ""; }
  }

  function render(run) {
    const display = run.display || {};
    const percent = Math.max(0, Math.min(100, Number(display.percent) || 0));
    field("bar").style.width = percent + "%";
    card.querySelector('[role="progressbar"]').setAttribute("aria-valuenow", String(Math.round(percent)));
    const status = field("status");
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

  connectSocket(card.dataset.socketPath, {
    onOpen: function () { setText("connection", "Live updates on."); },
    onMessage: function (message) {
      if (message.type === "progress" && message.run) {
        render(message.run);
      } else if (message.type === "error") {
        setText("connection", message.message);
      }
    },
    onForbidden: function () {
      setText("connection", finished ? "" : "Live updates are not available for this report.");
    },
    shouldReconnect: function () {
      if (finished) { setText("connection", ""); }
      return !finished;
    },
    onRetry: function () {
      setText("connection", "Live updates paused; reconnecting… (reload the page for the latest state)");
    },
  });
}

main();
