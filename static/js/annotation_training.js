/*
 * The project page's QA training job (annotation/templates/annotation/_model_in_the_loop.html):
 * polls the job's status while it is queued or running, shows step, epoch, loss and time left,
 * and reloads the page when the job has finished (the model in the loop has changed).
 */
import { call } from "./lib/api.js";

const box = document.getElementById("training-job");
if (box && box.dataset.active === "true") {
  const statusEl = document.getElementById("training-status");
  const detailEl = document.getElementById("training-detail");
  const bar = document.getElementById("training-progress");

  const show = (job) => {
    const p = job.progress || {};
    const stalled = (job.display || {}).stalled;
    statusEl.textContent = job.status === "running" ? "Running" : job.status.charAt(0).toUpperCase() + job.status.slice(1);
    if (stalled) {
      detailEl.textContent = stalled; // its worker went silent: not the last time left it wrote
    } else if (p.total_steps) {
      bar.value = p.step / p.total_steps;
      detailEl.textContent = `step ${p.step} of ${p.total_steps}, epoch ${p.epoch}, loss ${p.loss}` +
        (p.eta_seconds ? `, about ${Math.ceil(p.eta_seconds / 60)} min left` : "");
    } else {
      bar.removeAttribute("value"); // indeterminate while the model loads
      detailEl.textContent = p.stage ? `(${p.stage})` : "";
    }
  };

  const poll = async () => {
    const { ok, data: job } = await call(box.dataset.statusUrl);
    if (!ok || !job) {
      window.setTimeout(poll, 5000); // no connection or an error page: try again later
      return;
    }
    show(job);
    if (job.status === "done" || job.status === "failed") {
      window.location.reload();
      return;
    }
    window.setTimeout(poll, 2000);
  };

  poll();
}
