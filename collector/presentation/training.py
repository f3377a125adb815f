"""Training jobs in words, for the round page and its websocket."""
from collector.models import TrainingJob
from core.jobs import job_kind
from modelhub.progress import training_job_display


def training_job_payload(job: TrainingJob) -> dict:
    """``{id, job, name, status, error, display}`` of a training job, worded for the round page."""
    result = ""
    if job.status == TrainingJob.Status.DONE and job.model_version is not None:
        result = f"Registered model version {job.model_version.name}"
        result += f", now live in round {job.make_live_round.name}." if job.make_live_round else "."
    return {"id": job.pk, "job": job_kind(job), "name": job.name, "status": job.status, "error": job.error,
            "display": training_job_display(job, result=result)}
