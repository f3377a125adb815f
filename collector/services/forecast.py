"""Training a course's survival forecast (issue 29 §1) as a background job (``core.jobs``).

Started by an instructor's button on a round page and, automatically, whenever a round's
cross-validation scoring finishes (``scoring._finish`` enqueues ``collector.forecast_after_scoring``).
The job gathers every scored question of the course (``selectors.forecast.forecast_training_data``),
fits ``mlcore.stats.survival.fit_survival`` cross-fitted on the scoring runs' own folds, and stores
the fitted numbers with the training size and the held-out quality on the job row. Fitting takes
seconds, so a job whose worker died is simply run again from the start (it is idempotent).
"""
import logging
import math
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction

from collector.models import Round, SurvivalForecastJob
from collector.selectors.forecast import forecast_training_data
from core.jobs import job_claim, job_done, job_fail, job_progress_save, job_push, jobs_resume, task_enqueue
from mlcore.stats.survival import SurvivalForecast, fit_survival
from mlcore.stats.survival_verdict import forecast_params

logger = logging.getLogger(__name__)

TASK_NAME = "collector.forecast_job_run"


def forecast_job_start(*, round_: Round, user=None) -> SurvivalForecastJob:
    """Queue the training of the round's course's forecast; an active one of the course is reused."""
    try:
        with transaction.atomic():
            job = SurvivalForecastJob.objects.create(course_id=round_.course_id, round=round_, created_by=user,
                                                     progress={"stage": "queued"})
    except IntegrityError:  # one active training per course (one_active_survival_forecast)
        active = SurvivalForecastJob.objects.filter(course_id=round_.course_id,
                                                    status__in=SurvivalForecastJob.ACTIVE).first()
        if active is not None:
            return active
        raise
    job_push(job, job.status)
    transaction.on_commit(lambda: task_enqueue(TASK_NAME, job.pk))
    return job


def forecast_after_scoring(*, round_id: int) -> SurvivalForecastJob | None:
    """Train again once a round's cross-validation finished: its outcomes are new training data."""
    round_ = Round.objects.filter(pk=round_id).first()
    return None if round_ is None else forecast_job_start(round_=round_)


def _stale_after() -> timedelta:
    return timedelta(seconds=settings.STUMPER_SCORING_STALE_SECONDS)


def forecast_job_run(*, job_id: int) -> SurvivalForecastJob:
    """Gather, fit, measure and store; any failure is stored on the job."""
    job = job_claim(SurvivalForecastJob, job_id, resumable=True, stale_after=_stale_after(),
                    progress=lambda stored: {"stage": "gathering"})
    if job is None:
        return SurvivalForecastJob.objects.get(pk=job_id)
    try:
        data = forecast_training_data(course=job.course)
        job_progress_save(job, stage="fitting", questions=len(data.survived))
        forecast = _fit(data.features, data.survived, data.folds)
        job_done(job, **_stored(forecast), n_survived=sum(data.survived), source_rounds=data.round_ids,
                 source_runs=data.run_ids, progress={"stage": "done", "questions": len(data.survived)})
    except Exception as error:
        logger.exception("Survival forecast %s failed", job_id)
        job_fail(job, error)
    return SurvivalForecastJob.objects.get(pk=job_id)


def _fit(features, survived, folds) -> SurvivalForecast:
    """Cross-fitted on the scoring runs' folds; on stratified folds when those leave a fold's
    training side with one outcome only (few questions)."""
    if len(set(folds)) >= 2:
        try:
            return fit_survival(features, survived, folds=folds)
        except ValueError:
            pass
    return fit_survival(features, survived)


def _stored(forecast: SurvivalForecast) -> dict:
    quality = forecast.quality
    fields = {"params": forecast_params(forecast) if quality is not None else {}, "n_train": forecast.n_train,
              "usable": forecast.usable, "reason": forecast.reason}
    if quality is not None:
        scores = {"brier": quality.brier, "brier_base": quality.brier_base, "log_loss": quality.log_loss,
                  "log_loss_base": quality.log_loss_base, "auc": quality.auc,
                  "calibration_slope": quality.calibration_slope, "pvalue": quality.pvalue}
        # An undefined score (a calibration slope that did not converge) is stored as empty, not NaN.
        fields.update({name: value if math.isfinite(value) else None for name, value in scores.items()})
    return fields


def forecast_jobs_resume_interrupted() -> int:
    """Re-enqueue queued trainings and those whose worker stopped (called when a worker starts)."""
    return jobs_resume(SurvivalForecastJob, enqueue=lambda pk: task_enqueue(TASK_NAME, pk), resumable=True,
                       stale_after=_stale_after())
