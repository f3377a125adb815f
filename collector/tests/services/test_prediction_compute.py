from unittest import mock

import pytest

from collector.models import Prediction
from collector.services.questions import prediction_compute, predictions_schedule_pending, question_submit


@pytest.fixture
def pending_prediction(student, open_round):
    with mock.patch("collector.services.questions.prediction_schedule"):
        question = question_submit(
            user=student, round_id=open_round.pk, prompt="The cat sat. It",
            choices=["purred.", "exploded.", "drove a bus.", "wrote a novel."], correct_index=0,
            compute_prediction=False,
        )
    return question.predictions.get()


@pytest.mark.django_db
def test_pending_prediction_is_computed_by_the_service(pending_prediction, fake_model):
    assert pending_prediction.status == Prediction.Status.PENDING
    done = prediction_compute(prediction_id=pending_prediction.pk)
    assert done.status == Prediction.Status.DONE
    assert done.fooled is True
    assert done.computed_at is not None


@pytest.mark.django_db
def test_compute_is_idempotent(pending_prediction, fake_model):
    prediction_compute(prediction_id=pending_prediction.pk)
    prediction_compute(prediction_id=pending_prediction.pk)
    assert fake_model.call_count == 1
    assert Prediction.objects.get().attempts == 1


@pytest.mark.django_db
def test_failure_counts_attempts_and_keeps_it_pending(pending_prediction):
    with mock.patch("collector.services.questions.predict_examples", side_effect=OSError("weights missing")):
        prediction_compute(prediction_id=pending_prediction.pk)
        failed = prediction_compute(prediction_id=pending_prediction.pk)
    assert failed.status == Prediction.Status.PENDING
    assert failed.attempts == 2
    assert "weights missing" in failed.last_error


@pytest.mark.django_db
def test_real_tiny_model_gives_probabilities(pending_prediction):
    done = prediction_compute(prediction_id=pending_prediction.pk)
    assert done.status == Prediction.Status.DONE
    assert len(done.probs) == 4
    assert sum(done.probs) == pytest.approx(1.0, abs=1e-5)
    assert done.predicted_index == max(range(4), key=lambda i: done.probs[i])


@pytest.mark.django_db
def test_schedule_pending_enqueues_every_pending_one(pending_prediction):
    with mock.patch("collector.services.questions.prediction_schedule") as schedule:
        assert predictions_schedule_pending() == 1
    schedule.assert_called_once_with(prediction_id=pending_prediction.pk)


@pytest.mark.django_db
def test_task_retries_while_the_model_fails(pending_prediction):
    from celery.exceptions import Retry

    from collector.tasks import prediction_compute_task

    with (
        mock.patch("collector.services.questions.predict_examples", side_effect=RuntimeError("down")),
        mock.patch.object(prediction_compute_task, "retry", side_effect=Retry("again")) as retry,
        pytest.raises(Retry),
    ):
        prediction_compute_task.run(pending_prediction.pk)
    assert retry.called
