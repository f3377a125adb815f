"""The survival forecast in words: its training job on the round page, and the line an author sees.

The author's line (``survival_message``) says "likely / unlikely to survive cross-validation (about
N%)" only when the course's stored forecast is shown (``mlcore.stats.survival_verdict.forecast_shown``:
usable, and its held-out Brier score beats the base rate's); otherwise "not enough scored questions
yet". It is advice only: credit never reads it.
"""
import logging
from collections.abc import Sequence

from django.utils.translation import gettext as _

from collector.models import SurvivalForecastJob
from collector.selectors.forecast import draft_features
from core.i18n import digits
from core.jobs import job_display, job_kind
from mlcore.stats.survival_verdict import forecast_from_params, forecast_shown, survival_verdict

logger = logging.getLogger(__name__)


def forecast_is_shown(job: SurvivalForecastJob | None) -> bool:
    return job is not None and bool(job.params) and forecast_shown(usable=job.usable, brier=job.brier,
                                                                   brier_base=job.brier_base)


def survival_message(job: SurvivalForecastJob | None, *, prompt: str, choices: Sequence[str], answer: int,
                     probs: Sequence[float], answer_only_pick: int | None, warnings: Sequence[dict]) -> dict:
    """``{"state": "forecast", "likely", "percent", "message"}`` or ``{"state": "none", "message"}``."""
    none = {"state": "none", "message": _("Survival forecast: not enough scored questions yet.")}
    if not forecast_is_shown(job):
        return none
    try:
        forecast = forecast_from_params(job.params, n_train=job.n_train, usable=job.usable)
        verdict = survival_verdict(forecast, draft_features(prompt=prompt, choices=choices, answer=answer,
                                                            probs=probs, answer_only_pick=answer_only_pick,
                                                            warnings=warnings))
    except (ValueError, KeyError, TypeError):
        logger.warning("The survival forecast %s could not be applied", job.pk, exc_info=True)
        return none
    words = {"percent": digits(verdict.percent)}
    message = (_("Likely to survive cross-validation (about %(percent)s%%).") if verdict.likely
               else _("Unlikely to survive cross-validation (about %(percent)s%%).")) % words
    return {"state": "forecast", "likely": verdict.likely, "percent": verdict.percent, "message": message}


def _result(job: SurvivalForecastJob) -> str:
    if job.status != SurvivalForecastJob.Status.DONE:
        return ""
    numbers = {"n": digits(job.n_train), "brier": digits(f"{job.brier or 0:.3f}"),
               "base": digits(f"{job.brier_base or 0:.3f}"), "auc": digits(f"{job.auc or 0:.2f}")}
    if not job.params:
        return _("Trained on %(n)s scored questions: not enough scored questions yet, so authors see no forecast.") % numbers
    if forecast_is_shown(job):
        return _("Trained on %(n)s scored questions. Held-out Brier score %(brier)s against the base rate's "
                 "%(base)s (AUC %(auc)s): authors see the forecast.") % numbers
    return _("Trained on %(n)s scored questions. Held-out Brier score %(brier)s against the base rate's "
             "%(base)s: not better than chance, so authors see no forecast.") % numbers


def forecast_job_payload(job: SurvivalForecastJob) -> dict:
    """``{id, job, status, error, display}`` of a forecast training, worded for the round page."""
    stage = (job.progress or {}).get("stage", "")
    if job.status == SurvivalForecastJob.Status.DONE:
        percent, text = 100.0, _result(job)  # the card's progress line then says what came of it
    elif job.status == SurvivalForecastJob.Status.QUEUED:
        percent, text = 0.0, _("Waiting for a worker to start it.")
    elif job.status == SurvivalForecastJob.Status.FAILED:
        percent, text = 100.0, _("Failed.")
    elif stage == "fitting":
        percent, text = 50.0, _("Fitting the forecast and measuring it on held-out questions.")
    else:
        percent, text = 10.0, _("Gathering the course's scored questions.")
    display = job_display(job, {"status": job.get_status_display(), "percent": percent, "progress": text,
                                "result": _result(job)})
    return {"id": job.pk, "job": job_kind(job), "status": job.status, "error": job.error, "display": display}


def forecast_job_card(job: SurvivalForecastJob) -> dict:
    """The payload and the round's progress socket, which pushes the round's jobs, for job_progress.html."""
    return {**forecast_job_payload(job), "urls": {"socket": f"/ws/rounds/{job.round_id}/scoring/"}}
