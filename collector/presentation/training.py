"""Training jobs in words, for the round page and its websocket."""
from collector.models import TrainingJob
from collector.presentation.format import duration
from core.jobs import job_display


def training_job_payload(job: TrainingJob) -> dict:
    """``{id, name, status, error, display}`` of a training job, worded for the round page."""
    progress = job.progress or {}
    total, step = progress.get("total_steps") or 0, progress.get("step") or 0
    if job.status == TrainingJob.Status.DONE:
        percent, text = 100.0, "Finished."
    elif job.status == TrainingJob.Status.QUEUED:
        percent, text = 0.0, "Waiting for a worker to start it."
    elif job.status == TrainingJob.Status.FAILED:
        percent, text = 100.0 * step / total if total else 0.0, "Failed."
    elif total:
        percent = 100.0 * step / total
        text = f"Epoch {progress.get('epoch', 1)} · step {step}/{total}"
        if progress.get("loss") is not None:
            text += f" · loss {progress['loss']:.3f}"
        if progress.get("eta_seconds") is not None:
            text += f" · about {duration(progress['eta_seconds'])} left"
    else:
        percent, text = 0.0, "Loading the base model and the questions."
    result = ""
    if job.status == TrainingJob.Status.DONE and job.model_version is not None:
        result = f"Registered model version {job.model_version.name}"
        result += f", now live in round {job.make_live_round.name}." if job.make_live_round else "."
    return {
        "id": job.pk, "name": job.name, "status": job.status, "error": job.error,
        "display": job_display(job, {"status": job.get_status_display(), "percent": round(percent, 1), "progress": text,
                                     "result": result}),
    }
