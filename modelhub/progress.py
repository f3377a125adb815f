"""A training run's progress, stored on the background job that runs it (a round's or a project's training
job, or one that ``train_mc_model`` / ``train_qa_model`` started and follow), and shown in words."""

from django.utils.translation import gettext as _

from core.i18n import digits
from core.jobs import ProgressWriter, job_display
from core.models import BackgroundJob
from mlcore.configs import TrainProgress


def clock(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour on."""
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class TrainingJobProgress(ProgressWriter):
    """Stores step, loss and time left on a training job at most once a second (each write is pushed to its page: core.jobs.job_push)."""

    def __call__(self, step: TrainProgress) -> None:
        per_step = step.elapsed_seconds / max(step.step, 1)
        self.save(final=step.step >= step.total_steps, stage="training", step=step.step,
                  total_steps=step.total_steps, epoch=step.epoch, loss=round(step.loss, 4),
                  eta_seconds=round(per_step * (step.total_steps - step.step)))


def training_job_display(job: BackgroundJob, *, result: str = "") -> dict:
    """A training job (a round's or a project's) in words for its page, socket and API, in the active
    language: ``{status, state, percent, progress, result, stalled}`` (``core.jobs.job_display``)."""
    progress = job.progress or {}
    total, step = progress.get("total_steps") or 0, progress.get("step") or 0
    if job.status == BackgroundJob.Status.DONE:
        percent, text = 100.0, _("Finished.")
    elif job.status == BackgroundJob.Status.QUEUED:
        percent, text = 0.0, _("Waiting for a worker to start it.")
    elif job.status == BackgroundJob.Status.FAILED:
        percent, text = 100.0 * step / total if total else 0.0, _("Failed.")
    elif total:
        percent = 100.0 * step / total
        text = _("Epoch %(epoch)s · step %(step)s/%(total)s") % {"epoch": progress.get("epoch", 1), "step": step,
                                                                 "total": total}
        if progress.get("loss") is not None:
            text += _(" · loss %(loss)s") % {"loss": f"{progress['loss']:.3f}"}
        if progress.get("eta_seconds") is not None:
            text += _(" · about %(time)s left") % {"time": clock(progress["eta_seconds"])}
    else:
        percent, text = 0.0, _("Loading the base model and the questions.")
    return job_display(job, {"status": job.get_status_display(), "percent": round(percent, 1),
                             "progress": digits(text), "result": result})
