"""A real Celery worker process computes predictions that the web process left pending."""
from unittest import mock

import pytest

from collector.models import Prediction
from collector.services.questions import question_submit
from tests.worker import celery_worker, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_worker_fills_in_a_prediction_the_model_could_not_make_at_submission(student, open_round, real_broker, tmp_path):
    with mock.patch("collector.services.questions.predict_examples", side_effect=RuntimeError("model down")):
        question = question_submit(
            user=student, round_id=open_round.pk, prompt="The glass fell off the table. It",
            choices=["shattered.", "sang a song.", "grew wings.", "paid the rent."], correct_index=0,
        )
    prediction = question.predictions.get()
    assert prediction.status == Prediction.Status.PENDING  # enqueued, the worker is not running yet

    log_path = tmp_path / "worker.log"
    with celery_worker(log_path):
        wait_for(lambda: Prediction.objects.get(pk=prediction.pk).status == Prediction.Status.DONE,
                 timeout=90, log_path=log_path)
    prediction.refresh_from_db()
    assert len(prediction.probs) == 4
    assert prediction.fooled == (prediction.predicted_index != 0)
    assert prediction.model_version == open_round.live_model


def test_worker_start_up_sweeps_predictions_left_pending(student, open_round, real_broker, tmp_path):
    with mock.patch("collector.services.questions.prediction_schedule"):  # as if the broker had been down
        question = question_submit(
            user=student, round_id=open_round.pk, prompt="It started to rain. We",
            choices=["opened umbrellas.", "ate the clouds.", "froze the sun.", "sold the sky."], correct_index=0,
            compute_prediction=False,
        )
    log_path = tmp_path / "worker.log"
    with celery_worker(log_path):
        wait_for(lambda: question.predictions.get().status == Prediction.Status.DONE, timeout=90, log_path=log_path)
