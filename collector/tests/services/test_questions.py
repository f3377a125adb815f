"""``services/questions.py``: submitting a question (scored within its time budget, stored once per client token) and computing its predictions (idempotent; a failing model leaves them pending)."""
import uuid
from datetime import timedelta
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from collector.models import Prediction, Question
from collector.services.questions import prediction_compute, predictions_schedule_pending, question_submit
from core.exceptions import AccessError

CHOICES = ["bakes a cake.", "flies to the moon.", "eats a chair.", "sings to the oven."]


def submit(user, round_, **overrides):
    fields = {
        "user": user, "round_id": round_.pk, "prompt": "Maria loves baking. She", "choices": CHOICES,
        "correct_index": 0, "categories": ["other"], "time_spent_seconds": 42,
    }
    fields.update(overrides)
    return question_submit(**fields)


@pytest.mark.django_db
def test_submit_stores_question_and_server_side_prediction(student, open_round, fake_model):
    question = submit(student, open_round)
    prediction = question.predictions.get()
    assert question.prompt == "Maria loves baking. She"
    assert question.choices == CHOICES
    assert question.time_spent_seconds == 42
    assert prediction.status == Prediction.Status.DONE
    assert prediction.probs == [0.1, 0.2, 0.3, 0.4]
    assert prediction.predicted_index == 3
    assert prediction.fooled is True  # model picked 3, the key is 0
    assert prediction.model_version == open_round.live_model


@pytest.mark.django_db
def test_not_fooled_when_model_picks_the_key(student, open_round, fake_model):
    question = submit(student, open_round, correct_index=3)
    assert question.predictions.get().fooled is False


@pytest.mark.django_db
def test_submission_is_stripped_and_defaults_to_other(student, open_round, fake_model):
    question = submit(student, open_round, prompt="  Spaces around. He  ", categories=[])
    assert question.prompt == "Spaces around. He"
    assert question.categories == ["other"]


@pytest.mark.django_db
def test_model_failure_keeps_question_with_pending_prediction(student, open_round):
    with mock.patch("collector.services.questions.predict_examples", side_effect=RuntimeError("model exploded")), \
            mock.patch("collector.services.questions.prediction_schedule") as schedule:
        question = submit(student, open_round)
    prediction = question.predictions.get()
    assert Question.objects.count() == 1
    assert prediction.status == Prediction.Status.PENDING
    assert "model exploded" in prediction.last_error
    assert prediction.attempts == 1
    schedule.assert_called_once_with(prediction_id=prediction.pk)


@pytest.mark.django_db
def test_in_worker_mode_the_web_process_runs_no_model_and_queues_the_prediction(student, open_round, settings):
    settings.STUMPER_INFERENCE_MODE = "worker"
    with mock.patch("collector.services.questions.predict_examples") as predict, \
            mock.patch("collector.services.questions.prediction_schedule") as schedule:
        question = submit(student, open_round)
    prediction = question.predictions.get()
    predict.assert_not_called()
    assert prediction.status == Prediction.Status.PENDING and prediction.attempts == 0
    schedule.assert_called_once_with(prediction_id=prediction.pk)


@pytest.mark.django_db
def test_same_client_token_is_stored_once(student, open_round, fake_model):
    token = uuid.uuid4()
    first = submit(student, open_round, client_token=token)
    second = submit(student, open_round, client_token=token)
    assert first.pk == second.pk
    assert Question.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"prompt": "   "}, "prompt"),
        ({"prompt": ""}, "prompt"),
        ({"prompt": "x" * 501}, "prompt"),
        ({"choices": CHOICES[:3]}, "choices"),
        ({"choices": CHOICES + ["a fifth one."]}, "choices"),
        ({"choices": [CHOICES[0], CHOICES[1], "  ", CHOICES[3]]}, "choice_2"),
        ({"choices": [CHOICES[0], CHOICES[1], "Bakes a  cake.", CHOICES[3]]}, "choice_2"),
        ({"choices": [CHOICES[0], "y" * 201, CHOICES[2], CHOICES[3]]}, "choice_1"),
        ({"correct_index": 4}, "answer"),
        ({"correct_index": -1}, "answer"),
        ({"correct_index": None}, "answer"),
        ({"correct_index": "two"}, "answer"),
        ({"categories": ["sarcasm"]}, "categories"),
        ({"categories": "idioms"}, "categories"),
    ],
)
def test_bad_input_is_rejected_with_a_message_and_stores_nothing(student, open_round, fake_model, overrides, field):
    with pytest.raises(ValidationError) as caught:
        submit(student, open_round, **overrides)
    assert field in caught.value.message_dict
    assert all(message.strip() for message in caught.value.message_dict[field])
    assert Question.objects.count() == 0
    assert Prediction.objects.count() == 0


@pytest.mark.django_db
def test_category_not_offered_in_round_is_rejected(student, open_round, fake_model):
    open_round.categories = ["other"]
    open_round.save()
    with pytest.raises(ValidationError) as caught:
        submit(student, open_round, categories=["idioms"])
    assert "Not offered" in caught.value.message_dict["categories"][0]


@pytest.mark.django_db
def test_closed_round_refuses_submissions(student, open_round, fake_model):
    open_round.closes_at = timezone.now() - timedelta(minutes=1)
    open_round.save()
    with pytest.raises(AccessError, match="closed"):
        submit(student, open_round)
    assert Question.objects.count() == 0


@pytest.mark.django_db
def test_round_not_yet_open_refuses_submissions(student, open_round, fake_model):
    open_round.opens_at = timezone.now() + timedelta(days=1)
    open_round.save()
    with pytest.raises(AccessError, match="closed"):
        submit(student, open_round)


@pytest.mark.django_db
def test_student_of_another_course_is_refused(open_round, outsider, fake_model):
    with pytest.raises(AccessError, match="not enrolled"):
        submit(outsider, open_round)
    assert Question.objects.count() == 0


@pytest.mark.django_db
def test_anonymous_user_is_refused(open_round, fake_model):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(AccessError, match="sign in"):
        submit(AnonymousUser(), open_round)


@pytest.mark.django_db
def test_time_spent_is_clamped(student, open_round, fake_model):
    assert submit(student, open_round, time_spent_seconds=-5).time_spent_seconds == 0
    assert submit(student, open_round, time_spent_seconds=10**9, prompt="Another one. It").time_spent_seconds == 86400


def _slow_model(seconds: float):
    from collector.tests.factories import FIXED_PREDICTION

    def predict(version, examples):
        import time

        time.sleep(seconds)
        return [FIXED_PREDICTION]

    return predict


@pytest.mark.django_db
def test_a_slow_model_leaves_the_prediction_pending_after_the_budget(student, open_round, settings):
    import time

    settings.STUMPER_SUBMIT_SCORING_BUDGET = 0.2
    with mock.patch("collector.services.questions.predict_examples", side_effect=_slow_model(1.5)) as predict, \
            mock.patch("collector.services.questions.prediction_schedule") as schedule:
        start = time.monotonic()
        question = submit(student, open_round)
        waited = time.monotonic() - start
    prediction = question.predictions.get()
    assert predict.call_count == 1
    assert waited < 1.0  # the request did not wait for the model's 1.5 s
    assert prediction.status == Prediction.Status.PENDING
    assert prediction.attempts == 0 and prediction.last_error == ""  # slow is not a failure
    schedule.assert_called_once_with(prediction_id=prediction.pk)
    # The worker computes it later (without a budget) and the question gets its prediction.
    with mock.patch("collector.services.questions.predict_examples", side_effect=_slow_model(0.0)):
        assert prediction_compute(prediction_id=prediction.pk).status == Prediction.Status.DONE


@pytest.mark.django_db
def test_a_model_within_the_budget_answers_in_the_request(student, open_round, settings):
    settings.STUMPER_SUBMIT_SCORING_BUDGET = 5.0
    with mock.patch("collector.services.questions.predict_examples", side_effect=_slow_model(0.2)), \
            mock.patch("collector.services.questions.prediction_schedule") as schedule:
        question = submit(student, open_round)
    assert question.predictions.get().status == Prediction.Status.DONE
    schedule.assert_not_called()


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
