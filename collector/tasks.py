"""Celery tasks of the collector: thin wrappers that take ids and call idempotent services."""
from celery import shared_task
from celery.signals import worker_ready

from collector import services
from collector.models import Prediction


class PredictionStillPending(Exception):
    """Raised so Celery retries a prediction whose model failed this time."""


@shared_task(bind=True, acks_late=True, max_retries=8, name="collector.prediction_compute")
def prediction_compute_task(self, prediction_id: int) -> None:
    prediction = services.prediction_compute(prediction_id=prediction_id)
    if prediction.status == Prediction.Status.PENDING:
        # Back off 5 s, 10 s, 20 s ... up to about 20 minutes in all; the start-up sweep retries later.
        raise self.retry(exc=PredictionStillPending(prediction.last_error), countdown=5 * 2**self.request.retries)


@worker_ready.connect
def _sweep_pending_predictions(**kwargs) -> None:
    """Predictions left pending while no worker ran (or the broker was down) get computed now."""
    services.predictions_schedule_pending()
