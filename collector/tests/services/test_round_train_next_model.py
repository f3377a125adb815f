"""``training.round_train_next_model`` (and its task) on the tiny BERT, one epoch."""
from pathlib import Path
from unittest import mock

import pytest
from django.core.exceptions import ValidationError

from collector import services, tasks, training
from collector.models import ModelVersion, Prediction, Question, Round
from collector.tests.factories import question_data

TINY_TRAINING = {"epochs": 1, "batch_size": 4, "max_length": 32, "freeze_layers": 1, "threads": 1}


@pytest.fixture
def model_dir(settings, tmp_path) -> Path:
    settings.STUMPER_MODEL_DIR = tmp_path / "models"
    return settings.STUMPER_MODEL_DIR


@pytest.fixture
def two_rounds(open_round, course, student, tiny_model_dir, fake_model):
    """Round 1 (3 questions, scored live by the tiny model) and round 2 (2 questions), plus a
    round of another course whose question must not be trained on."""
    open_round.base_checkpoint = str(tiny_model_dir)
    open_round.scoring_config = TINY_TRAINING
    open_round.save()
    second = services.round_create(course=course, name="round-2", live_model=open_round.live_model)
    Round.objects.filter(pk=second.pk).update(base_checkpoint=str(tiny_model_dir), scoring_config=TINY_TRAINING)
    second.refresh_from_db()
    for i in range(3):
        services.question_submit(user=student, round_id=open_round.pk, **question_data(prompt=f"First {i}. He"))
    for i in range(2):
        services.question_submit(user=student, round_id=second.pk, **question_data(prompt=f"Second {i}. He"))
    other = services.course_create(owner=course.owner, name="Other course")
    services.course_join(user=student, join_code=other.join_code)
    elsewhere = services.round_create(course=other, name="elsewhere")
    services.question_submit(user=student, round_id=elsewhere.pk, **question_data(prompt="Elsewhere. He"))
    return open_round, second


@pytest.mark.django_db
def test_trains_on_every_question_so_far_and_goes_live(model_dir, two_rounds, course):
    first, second = two_rounds
    third = services.round_create(course=course, name="round-3")
    old_model = first.live_model

    version = training.round_train_next_model(round_=second, name="after-round-2", make_live_round=third)

    assert version.kind == ModelVersion.Kind.MULTIPLE_CHOICE and version.revision
    assert version.metrics["train_examples"] == 5  # both rounds of the course, not the other course
    assert Path(version.path) == model_dir / "after-round-2"
    assert Round.objects.get(pk=third.pk).live_model == version
    assert Round.objects.get(pk=second.pk).live_model == old_model
    # Questions keep the model version that answered them live.
    answered = Prediction.objects.filter(question__round__course=course).values_list("model_version__name", flat=True)
    assert set(answered) == {old_model.name}


@pytest.mark.django_db
def test_earlier_round_does_not_see_later_questions(model_dir, two_rounds):
    first, _ = two_rounds
    version = training.round_train_next_model(round_=first, name="after-round-1")
    assert version.metrics["train_examples"] == 3


@pytest.mark.django_db
def test_task_calls_the_service(model_dir, two_rounds):
    first, second = two_rounds
    tasks.model_train_task(first.pk, "from-task", second.pk)
    assert Round.objects.get(pk=second.pk).live_model.name == "from-task"


@pytest.mark.django_db
def test_schedule_checks_before_queueing(two_rounds, other_instructor, django_capture_on_commit_callbacks):
    first, second = two_rounds
    with mock.patch("collector.tasks.model_train_task.delay") as delay, \
            django_capture_on_commit_callbacks(execute=True):
        training.round_train_next_model_schedule(round_=first, name="next-one", make_live_round=second)
    delay.assert_called_once_with(first.pk, "next-one", second.pk)
    with pytest.raises(ValidationError, match="already exists"):
        training.round_train_next_model_schedule(round_=first, name=first.live_model.name)
    foreign = services.round_create(course=services.course_create(owner=other_instructor, name="X"), name="x1")
    with pytest.raises(ValidationError, match="same course"):
        training.round_train_next_model_schedule(round_=first, name="n2", make_live_round=foreign)
    with pytest.raises(ValidationError, match="no questions"):
        training.round_train_next_model_schedule(round_=foreign, name="n3")
    assert Question.objects.filter(round=foreign).count() == 0


@pytest.mark.django_db
def test_service_refuses_an_empty_course(round_):
    with pytest.raises(ValueError, match="no questions"):
        training.round_train_next_model(round_=round_, name="nothing")
