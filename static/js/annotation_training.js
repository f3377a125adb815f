/*
 * The project page's QA training job (annotation/templates/annotation/_model_in_the_loop.html):
 * polls the job's status while it is queued or running, shows step, epoch, loss and time left,
 * and reloads the page when the job has finished (the model in the loop has changed).
 */
(function () {
  "use strict";

  var box = document.getElementById("training-job");
  if (!box || box.dataset.active !== "true" || !window.fetch) { return; }
  var statusEl = document.getElementById("training-status");
  var detailEl = document.getElementById("training-detail");
  var bar = document.getElementById("training-progress");

  function show(job) {
    var p = job.progress || {};
    statusEl.textContent = job.status === "running" ? "Running" : job.status.charAt(0).toUpperCase() + job.status.slice(1);
    if (p.total_steps) {
      bar.value = p.step / p.total_steps;
      detailEl.textContent = "step " + p.step + " of " + p.total_steps + ", epoch " + p.epoch + ", loss " + p.loss +
        (p.eta_seconds ? ", about " + Math.ceil(p.eta_seconds / 60) + " min left" : "");
    } else {
      bar.removeAttribute("value");  // indeterminate while the model loads
      detailEl.textContent = p.stage ? "(" + p.stage + ")" : "";
    }
  }

  function poll() {
    fetch(box.dataset.statusUrl, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (response) { return response.json(); })
      .then(function (job) {
        show(job);
        if (job.status === "done" || job.status === "failed") { window.location.reload(); return; }
        window.setTimeout(poll, 2000);
      }, function () { window.setTimeout(poll, 5000); });
  }

  poll();
})();
