"""Training jobs in words, for the round page and its websocket."""
from django.utils.translation import gettext as _

from collector.models import TrainingJob
from core.jobs import job_kind
from modelhub.progress import training_job_display


def training_job_payload(job: TrainingJob) -> dict:
    """``{id, job, name, status, error, display}`` of a training job, worded for the round page."""
    result = ""
    if job.status == TrainingJob.Status.DONE and job.model_version is not None:
        names = {"name": job.model_version.name, "round": job.make_live_round.name if job.make_live_round else ""}
        if job.kind == TrainingJob.Kind.ANSWER_ONLY:
            result = _("Registered model version %(name)s; the coach asks it about drafts.") % names
        elif job.kind == TrainingJob.Kind.STARTER:
            names["round"] = job.round.name
            result = (_("Registered model version %(name)s, now live in round %(round)s.") if job.progress.get("live")
                      else _("Registered model version %(name)s; the round's live model was changed meanwhile, "
                             "so it stays as chosen.")) % names
        elif job.make_live_round:
            result = _("Registered model version %(name)s, now live in round %(round)s.") % names
        else:
            result = _("Registered model version %(name)s.") % names
    return {"id": job.pk, "job": job_kind(job), "name": job.name, "status": job.status, "error": job.error,
            "display": training_job_display(job, result=result)}


def training_job_card(job: TrainingJob) -> dict:
    """The payload and the socket that follows it, for one job's card (templates/includes/job_progress.html):
    the round's progress socket, which pushes every training job of the round."""
    return {**training_job_payload(job), "urls": {"socket": f"/ws/rounds/{job.round_id}/scoring/"}}
