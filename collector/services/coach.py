"""Writes of the artifact coach: the warnings it showed, settled when the question is submitted,
and the round's answer-only model it asks about each draft.

Shown warnings are recorded once per question and kind (``CoachWarning``, keyed by the authoring
form's token, ``coach_warnings_record``); when the question is submitted they are settled: still
present, or heeded (``coach_warnings_settle``). The checks themselves are reads
(``selectors/coach.py``).

The answer-only model: cross-validation scoring with ``--answer-only`` measures the artifact
(out-of-fold predictions) but leaves no model to serve. ``round_answer_only_model_train`` trains
one on all of the round's questions (rejected ones left out) with the prompts blanked, using the
existing fine-tuning code and the round's scoring recipe, registers it as a ``ModelVersion`` and
sets ``Round.answer_only_model``; drafts then reach it through the same inference service as the
live model. From the quality page or the API it runs as a ``TrainingJob`` of kind ``answer_only``
(``round_answer_only_model_schedule``, ``answer_only_job_run``): states, progress, heartbeat and
failure text as every training job, shown with them on the round page.
"""
import uuid
from collections.abc import Callable, Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from collector.models import CoachWarning, Prediction, Question, QuestionStatus, Round, ScoringRun, TrainingJob
from collector.selectors.coach import text_warnings
from collector.services.hardware import worker_hardware_report
from collector.services.scoring import scoring_config_for
from collector.services.training import TASK_NAMES, model_version_train, training_job_claim
from core.jobs import job_push, task_enqueue
from mlcore.configs import CATEGORIES, MCExample, TrainProgress
from modelhub.models import ModelVersion
from modelhub.progress import TrainingJobProgress
from modelhub.training import training_job_finish

MIN_QUESTIONS = 10
NAME_SUFFIX = "-answer-only"


def answer_only_model_name(round_: Round) -> str:
    # ModelVersion.name holds 100 characters; round names are already safe path components.
    return round_.name[: 100 - len(NAME_SUFFIX)] + NAME_SUFFIX


def _examples(round_: Round) -> list[MCExample]:
    questions = Question.objects.filter(round=round_).exclude(status=QuestionStatus.REJECTED).order_by("created_at", "id")
    return [
        MCExample(prompt=q.prompt, choices=tuple(q.choices), label=q.correct_index,
                  categories=tuple(c for c in q.categories if c in CATEGORIES))
        for q in questions
    ]


def answer_only_model_check(*, round_: Round) -> None:
    """Raise ValidationError unless the round can get an answer-only model now."""
    count = Question.objects.filter(round=round_).exclude(status=QuestionStatus.REJECTED).count()
    if count < MIN_QUESTIONS:
        raise ValidationError(
            f"Round {round_.name} has {count} usable question(s); an answer-only model needs at least {MIN_QUESTIONS}."
        )
    existing = ModelVersion.objects.filter(name=answer_only_model_name(round_)).first()
    if existing is not None and round_.answer_only_model_id != existing.pk:
        raise ValidationError(
            f"A model named {existing.name!r} exists but is not this round's answer-only model; rename it first."
        )


def round_answer_only_model_schedule(*, round_: Round, user=None) -> TrainingJob:
    """Check now, store a queued answer-only training job and enqueue it once the transaction commits."""
    answer_only_model_check(round_=round_)
    try:
        with transaction.atomic():
            job = TrainingJob.objects.create(round=round_, kind=TrainingJob.Kind.ANSWER_ONLY,
                                             name=answer_only_model_name(round_), created_by=user,
                                             progress={"stage": "queued"})
    except IntegrityError:  # one active job per model name: a double click queues one
        raise ValidationError(f"The answer-only model of round {round_.name} is already being trained.") from None
    job_push(job, job.status)
    transaction.on_commit(lambda: task_enqueue(TASK_NAMES[TrainingJob.Kind.ANSWER_ONLY], job.pk))
    return job


def answer_only_job_run(*, job_id: int) -> TrainingJob:
    """Train the job's answer-only model unless it already ran; any failure is stored on the job."""
    job = training_job_claim(job_id)
    if job is None:
        return TrainingJob.objects.get(pk=job_id)
    worker_hardware_report()
    training_job_finish(job, lambda: round_answer_only_model_train(round_=job.round, progress=TrainingJobProgress(job)))
    return TrainingJob.objects.get(pk=job_id)


def round_answer_only_model_train(*, round_: Round,
                                  progress: Callable[[TrainProgress], None] | None = None) -> ModelVersion:
    """Train (or retrain, replacing the weights) the round's answer-only model and attach it."""
    answer_only_model_check(round_=round_)
    examples = _examples(round_)
    config = scoring_config_for(round_=round_, kind=ScoringRun.Kind.ANSWER_ONLY)  # answer_only=True
    version = model_version_train(
        name=answer_only_model_name(round_), train_examples=examples, base=round_.base_checkpoint or None,
        config=config, course_id=round_.course_id, progress=progress,
        description=f"Answer-only model (prompts blanked) of round {round_.name}, trained on {len(examples)} questions; "
        "the artifact coach asks it about drafts.",
    )
    Round.objects.filter(pk=round_.pk).update(answer_only_model=version)
    round_.answer_only_model = version
    return version


def coach_warnings_record(*, author_id: int, round_: Round, token: uuid.UUID, warnings: Sequence[dict]) -> list[str]:
    """Remember that these warnings were shown for the question with this form token.

    Idempotent (one row per token and kind, the first showing wins); returns the kinds stored.
    """
    stored = []
    for warning in warnings:
        if warning["kind"] not in CoachWarning.Kind.values:
            continue  # the junk warning decides credit (selectors/junk.py) and is not counted as advice
        detail = {key: value for key, value in warning.items() if key not in ("kind", "message")}
        try:
            with transaction.atomic():
                CoachWarning.objects.get_or_create(
                    author_id=author_id, client_token=token, kind=warning["kind"],
                    defaults={"round": round_, "detail": detail},
                )
        except IntegrityError:
            pass  # shown twice at once on two connections: the other one stored it
        stored.append(warning["kind"])
    return stored


def coach_warnings_settle(*, question: Question) -> int:
    """Link the warnings shown while ``question`` was written to it and say which still apply.

    The answer-only warning is settled from the stored answer-only prediction once it is
    computed (``settle_answer_only``). Returns how many warnings were linked.
    """
    if question.client_token is None:
        return 0
    shown = list(CoachWarning.objects.filter(author=question.author_id, client_token=question.client_token))
    if not shown:
        return 0
    present = {
        w["kind"] for w in text_warnings(
            round_=question.round, author_id=question.author_id, prompt=question.prompt, choices=question.choices,
            answer=question.correct_index, exclude_question=question.pk,
        )
    }
    for warning in shown:
        fields = {"question": question}
        if warning.kind != CoachWarning.Kind.ANSWER_ONLY:
            fields["present_at_submit"] = warning.kind in present
        CoachWarning.objects.filter(pk=warning.pk).update(**fields)
    settle_answer_only(question=question)
    return len(shown)


def settle_answer_only(*, question: Question) -> None:
    """Settle the answer-only warning of ``question`` from its answer-only prediction, if computed."""
    prediction = question.predictions.filter(kind=Prediction.Kind.ANSWER_ONLY, status=Prediction.Status.DONE).first()
    if prediction is None:
        return
    CoachWarning.objects.filter(question=question, kind=CoachWarning.Kind.ANSWER_ONLY).update(
        present_at_submit=prediction.predicted_index == question.correct_index
    )
