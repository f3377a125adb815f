"""Celery tasks of the evaluation app: thin wrappers that take ids and call idempotent services."""
from celery import shared_task
from celery.signals import worker_ready

from evaluation.models import EvaluationRun, ModelEvaluation
from evaluation.services import leaderboards as leaderboard_services
from evaluation.services import reports as report_services


@shared_task(bind=True, acks_late=True, max_retries=None, name="evaluation.evaluation_run")
def evaluation_run_task(self, run_id: int) -> None:
    run = report_services.evaluation_run(run_id=run_id)
    if run.status in EvaluationRun.ACTIVE:
        # Another live worker holds the run; look again once its heartbeat could have gone stale.
        raise self.retry(countdown=int(report_services.STALE_AFTER.total_seconds()))


@shared_task(bind=True, acks_late=True, max_retries=None, name="evaluation.model_evaluation_run")
def model_evaluation_run_task(self, evaluation_id: int) -> None:
    evaluation = leaderboard_services.model_evaluation_run(evaluation_id=evaluation_id)
    if evaluation.status in ModelEvaluation.ACTIVE:
        # Another live worker holds it; look again once its heartbeat could have gone stale.
        raise self.retry(countdown=int(leaderboard_services.STALE_AFTER.total_seconds()))


@worker_ready.connect
def _resume_interrupted_reports(**kwargs) -> None:
    """Reports left queued or orphaned while no worker ran are picked up now."""
    report_services.evaluation_resume_interrupted()
    leaderboard_services.model_evaluations_resume_interrupted()
