"""``services/coach.py``: recording the coach's warnings and settling them at submission, and the answer-only model (trained on the tiny BERT with prompts blanked)."""
import uuid
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from collector.models import CoachWarning, Prediction, Round, TrainingJob
from collector.presentation.training import training_job_payload
from collector.selectors.coach import ANSWER_ONLY_MESSAGE, coach_report, text_warnings
from collector.services.coach import (
    MIN_QUESTIONS,
    answer_only_job_run,
    coach_warnings_record,
    round_answer_only_model_schedule,
    round_answer_only_model_train,
)
from collector.services.questions import question_submit
from collector.services.training import TASK_NAMES, training_jobs_resume_interrupted
from collector.tasks import answer_only_job_run_task
from collector.tests.factories import question_data
from mlcore.models.inference import build_scorer, read_training_meta
from modelhub.inference import scorer_spec_for
from modelhub.models import ModelVersion
from modelhub.services import model_version_register

pytestmark = pytest.mark.django_db


LONG_RIGHT = ["went home after a very long and tiring day at the office.", "ran.", "sat.", "ate."]


def kinds(warnings) -> list[str]:
    return [w["kind"] for w in warnings]


class RecordAndSettleTests:
    def test_heeded_and_ignored_warnings_are_told_apart_at_submission(self, peer_round, student, fake_model):
        heeded_token, ignored_token = uuid.uuid4(), uuid.uuid4()
        length = text_warnings(round_=peer_round, author_id=student.pk, prompt="Tom was tired. He",
                                     choices=LONG_RIGHT, answer=0)
        for token in (heeded_token, ignored_token):
            coach_warnings_record(author_id=student.pk, round_=peer_round, token=token, warnings=length)
            coach_warnings_record(author_id=student.pk, round_=peer_round, token=token, warnings=length)
        assert CoachWarning.objects.count() == 2  # once per question and kind
        # The author shortened the right completion of the first question but not of the second.
        question_submit(user=student, round_id=peer_round.pk, client_token=heeded_token, **question_data(
            prompt="Tom was tired. He", choices=["went home.", "ran.", "sat.", "ate."]))
        question_submit(user=student, round_id=peer_round.pk, client_token=ignored_token, **question_data(
            prompt="Tom was very tired. He", choices=LONG_RIGHT))
        assert CoachWarning.objects.get(client_token=heeded_token).present_at_submit is False
        assert CoachWarning.objects.get(client_token=ignored_token).present_at_submit is True
        # A warning for a draft that was never submitted stays unsettled.
        coach_warnings_record(author_id=student.pk, round_=peer_round, token=uuid.uuid4(), warnings=length)
        row = next(r for r in coach_report(round_=peer_round) if r["kind"] == "length")
        assert (row["shown"], row["submitted"], row["heeded"], row["ignored"]) == (3, 2, 1, 1)
        assert row["heeded_rate"] == 0.5 and row["enabled"] is True


TINY_TRAINING = {"epochs": 1, "batch_size": 4, "max_length": 32, "freeze_layers": 1, "threads": 1}


@pytest.fixture
def trainable_round(peer_round, student, tiny_model_dir, fake_model, settings, tmp_path):
    settings.STUMPER_MODEL_DIR = tmp_path / "models"
    Round.objects.filter(pk=peer_round.pk).update(base_checkpoint=str(tiny_model_dir), scoring_config=TINY_TRAINING)
    peer_round.refresh_from_db()
    for i in range(MIN_QUESTIONS):
        question_submit(user=student, round_id=peer_round.pk, **question_data(
            prompt=f"Question number {i} is here. He", correct_index=i % 4,
            choices=[f"ate {i} apples.", f"saw {i} birds.", f"lost {i} hats.", f"made {i} cakes."]))
    return peer_round


def test_trains_registers_and_attaches_a_prompt_blind_model(trainable_round, tmp_path):
    version = round_answer_only_model_train(round_=trainable_round)
    assert version.name == "r1-answer-only" and version.kind == ModelVersion.Kind.MULTIPLE_CHOICE
    assert Path(version.path) == tmp_path / "models" / "r1-answer-only"
    assert read_training_meta(version.path)["answer_only"] is True
    assert version.metrics["train_examples"] == MIN_QUESTIONS
    assert version.course_id == trainable_round.course_id  # trained on the course's questions: its model
    assert Round.objects.get(pk=trainable_round.pk).answer_only_model == version
    scorer = build_scorer(scorer_spec_for(version))
    assert scorer.answer_only_ is True  # the scorer blanks prompts too: same inference path as live
    again = round_answer_only_model_train(round_=trainable_round)  # retraining replaces it
    assert again.pk == version.pk and ModelVersion.objects.filter(name=version.name).count() == 1


def test_submissions_then_store_the_answer_only_check_and_settle_the_warning(trainable_round, student):
    round_answer_only_model_train(round_=trainable_round)
    trainable_round.refresh_from_db()
    token = uuid.uuid4()
    coach_warnings_record(author_id=student.pk, round_=trainable_round, token=token,
                                warnings=[{"kind": "answer_only", "message": ANSWER_ONLY_MESSAGE}])
    question = question_submit(user=student, round_id=trainable_round.pk, client_token=token,
                                        **question_data(prompt="A new one. He"))
    check = Prediction.objects.get(question=question, kind=Prediction.Kind.ANSWER_ONLY)
    assert check.status == "done" and check.model_version == trainable_round.answer_only_model
    warning = CoachWarning.objects.get(client_token=token)
    assert warning.question == question
    # The (fake) model picks D; the key is A: the answer is no longer findable, the warning was heeded.
    assert warning.present_at_submit is False


def test_too_few_questions_are_refused(peer_round, student, fake_model):
    question_submit(user=student, round_id=peer_round.pk, **question_data())
    with pytest.raises(ValidationError, match="at least 10"):
        round_answer_only_model_schedule(round_=peer_round)


def test_a_model_of_someone_else_with_that_name_is_never_overwritten(trainable_round):
    model_version_register(name="r1-answer-only", kind="multiple_choice", path="/elsewhere")
    with pytest.raises(ValidationError, match="not this round's answer-only model"):
        round_answer_only_model_train(round_=trainable_round)


def test_the_job_trains_once_the_request_commits_with_progress(trainable_round, instructor,
                                                                django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = round_answer_only_model_schedule(round_=trainable_round, user=instructor)
        assert job.status == TrainingJob.Status.QUEUED and job.kind == TrainingJob.Kind.ANSWER_ONLY
        with pytest.raises(ValidationError, match="already being trained"):  # a double click queues one job
            round_answer_only_model_schedule(round_=trainable_round)
    job.refresh_from_db()
    version = Round.objects.get(pk=trainable_round.pk).answer_only_model
    assert version is not None and job.model_version == version and job.name == version.name
    assert job.status == TrainingJob.Status.DONE and job.created_by == instructor and job.error == ""
    assert job.started_at is not None and job.heartbeat_at is not None and job.finished_at is not None
    # The worker's progress: every step of the (one-epoch) training, stored on the job.
    assert job.progress["stage"] == "done" and job.progress["step"] == job.progress["total_steps"] > 0
    payload = training_job_payload(job)
    assert payload["display"]["percent"] == 100.0 and "the coach asks it about drafts" in payload["display"]["result"]
    with translation.override("fa"):
        assert training_job_payload(job)["display"]["result"] == f"نسخهٔ مدل {version.name} ثبت شد؛ مربی پیش‌نویس‌ها را از آن می‌پرسد."
    assert answer_only_job_run_task.name == "collector.answer_only_job_run" == TASK_NAMES[job.kind]
    assert answer_only_job_run(job_id=job.pk).status == TrainingJob.Status.DONE  # a second delivery trains nothing


def test_a_failed_job_stores_the_error_and_attaches_nothing(trainable_round, monkeypatch,
                                                             django_capture_on_commit_callbacks):
    def broken(**kwargs):
        raise RuntimeError("out of memory on the worker")

    monkeypatch.setattr("collector.services.coach.model_version_train", broken)
    with django_capture_on_commit_callbacks(execute=True):
        job = round_answer_only_model_schedule(round_=trainable_round)
    job.refresh_from_db()
    assert job.status == TrainingJob.Status.FAILED and job.progress["stage"] == "failed"
    assert job.error == "RuntimeError: out of memory on the worker" and job.model_version is None
    assert Round.objects.get(pk=trainable_round.pk).answer_only_model is None


def test_a_queued_job_is_sent_again_to_its_own_task_when_a_worker_starts(peer_round, monkeypatch):
    job = TrainingJob.objects.create(round=peer_round, kind=TrainingJob.Kind.ANSWER_ONLY, name="r1-answer-only")
    sent = []
    monkeypatch.setattr("collector.services.training.task_enqueue", lambda name, *args: sent.append((name, *args)))
    assert training_jobs_resume_interrupted() == 1
    assert sent == [("collector.answer_only_job_run", job.pk)]
