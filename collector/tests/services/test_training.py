"""``round_train_next_model`` (and its task) on the tiny BERT, one epoch."""
from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from collector.models import Prediction, Question, Round, TrainingJob
from collector.services.questions import question_submit
from collector.services.rounds import round_create
from collector.services.training import (
    round_train_next_model,
    training_job_run,
    training_job_start,
    training_jobs_resume_interrupted,
)
from collector.tasks import training_job_run_task
from collector.tests.factories import question_data
from courses.services import course_create, course_join
from modelhub.models import ModelVersion

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
    second = round_create(course=course, name="round-2", live_model=open_round.live_model)
    Round.objects.filter(pk=second.pk).update(base_checkpoint=str(tiny_model_dir), scoring_config=TINY_TRAINING)
    second.refresh_from_db()
    for i in range(3):
        question_submit(user=student, round_id=open_round.pk, **question_data(prompt=f"First {i}. He"))
    for i in range(2):
        question_submit(user=student, round_id=second.pk, **question_data(prompt=f"Second {i}. He"))
    other = course_create(owner=course.owner, name="Other course")
    course_join(user=student, join_code=other.join_code)
    elsewhere = round_create(course=other, name="elsewhere")
    question_submit(user=student, round_id=elsewhere.pk, **question_data(prompt="Elsewhere. He"))
    return open_round, second


@pytest.mark.django_db
def test_trains_on_every_question_so_far_and_goes_live(model_dir, two_rounds, course):
    first, second = two_rounds
    third = round_create(course=course, name="round-3")
    old_model = first.live_model

    version = round_train_next_model(round_=second, name="after-round-2", make_live_round=third)

    assert version.kind == ModelVersion.Kind.MULTIPLE_CHOICE and version.revision
    assert version.metrics["train_examples"] == 5  # both rounds of the course, not the other course
    assert version.course_id == course.pk and not version.shared  # the course's instructors' model
    assert Path(version.path) == model_dir / "after-round-2"
    assert Round.objects.get(pk=third.pk).live_model == version
    assert Round.objects.get(pk=second.pk).live_model == old_model
    # Questions keep the model version that answered them live.
    answered = Prediction.objects.filter(question__round__course=course).values_list("model_version__name", flat=True)
    assert set(answered) == {old_model.name}


@pytest.mark.django_db
def test_earlier_round_does_not_see_later_questions(model_dir, two_rounds):
    first, _ = two_rounds
    version = round_train_next_model(round_=first, name="after-round-1")
    assert version.metrics["train_examples"] == 3


@pytest.mark.django_db
def test_task_runs_the_job_and_reports_progress(model_dir, two_rounds, instructor):
    first, second = two_rounds
    job = TrainingJob.objects.create(round=first, name="from-task", make_live_round=second, created_by=instructor)
    training_job_run_task(job.pk)
    job.refresh_from_db()
    assert job.status == TrainingJob.Status.DONE and job.error == ""
    assert job.model_version.name == "from-task" and job.progress["stage"] == "done"
    assert job.progress["step"] == job.progress["total_steps"] > 0  # the last step is always written
    assert Round.objects.get(pk=second.pk).live_model.name == "from-task"
    # A second delivery of the task (acks_late) finds the job done and trains nothing.
    with mock.patch("collector.services.training.round_train_next_model") as train:
        training_job_run_task(job.pk)
    assert not train.called


@pytest.mark.django_db
def test_failure_is_stored_on_the_job(two_rounds, settings, tmp_path):
    first, _ = two_rounds
    Round.objects.filter(pk=first.pk).update(base_checkpoint=str(tmp_path / "no-such-model"))
    job = TrainingJob.objects.create(round=first, name="broken")
    training_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == TrainingJob.Status.FAILED and job.error and job.model_version is None
    assert not ModelVersion.objects.filter(name="broken").exists()


@pytest.mark.django_db
def test_start_checks_before_queueing(two_rounds, instructor, other_instructor, django_capture_on_commit_callbacks):
    first, second = two_rounds
    with mock.patch("collector.tasks.training_job_run_task.delay") as delay, \
            django_capture_on_commit_callbacks(execute=True):
        job = training_job_start(round_=first, name="next-one", make_live_round=second, user=instructor)
    delay.assert_called_once_with(job.pk)
    assert job.status == TrainingJob.Status.QUEUED and job.created_by == instructor
    with pytest.raises(ValidationError, match="already being trained"):
        training_job_start(round_=first, name="next-one")
    with pytest.raises(ValidationError, match="already exists"):
        training_job_start(round_=first, name=first.live_model.name)
    foreign = round_create(course=course_create(owner=other_instructor, name="X"), name="x1")
    with pytest.raises(ValidationError, match="same course"):
        training_job_start(round_=first, name="n2", make_live_round=foreign)
    with pytest.raises(ValidationError, match="no questions"):
        training_job_start(round_=foreign, name="n3")
    assert Question.objects.filter(round=foreign).count() == 0
    assert TrainingJob.objects.count() == 1


@pytest.mark.django_db
def test_worker_start_requeues_queued_and_fails_abandoned_jobs(two_rounds):
    first, _ = two_rounds
    queued = TrainingJob.objects.create(round=first, name="waiting")
    abandoned = TrainingJob.objects.create(
        round=first, name="abandoned", status=TrainingJob.Status.RUNNING,
        heartbeat_at=timezone.now() - timedelta(hours=1),
    )
    alive = TrainingJob.objects.create(round=first, name="alive", status=TrainingJob.Status.RUNNING,
                                       heartbeat_at=timezone.now())
    with mock.patch("collector.tasks.training_job_run_task.delay") as delay:
        assert training_jobs_resume_interrupted() == 1
    delay.assert_called_once_with(queued.pk)
    abandoned.refresh_from_db()
    alive.refresh_from_db()
    assert abandoned.status == TrainingJob.Status.FAILED and "Start the training again" in abandoned.error
    assert alive.status == TrainingJob.Status.RUNNING


@pytest.mark.django_db
def test_service_refuses_an_empty_course(round_):
    with pytest.raises(ValueError, match="no questions"):
        round_train_next_model(round_=round_, name="nothing")
