"""The round's answer-only model: what the coach asks whether a draft's answer is findable
without its prompt.

Cross-validation scoring with ``--answer-only`` measures the artifact (out-of-fold
predictions) but leaves no model to serve. This trains one on all of the round's questions
(rejected ones left out) with the prompts blanked, using the existing fine-tuning code and the
round's scoring recipe, registers it as a ``ModelVersion`` and sets ``Round.answer_only_model``;
drafts then reach it through the same inference service as the live model.
"""
from django.core.exceptions import ValidationError
from django.db import transaction

from collector.models import Question, QuestionStatus, Round, ScoringRun
from collector.scoring import scoring_config_for
from collector.training import model_version_train
from core.jobs import task_delay
from mlcore.configs import CATEGORIES, MCExample
from modelhub.models import ModelVersion

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


def round_answer_only_model_schedule(*, round_: Round) -> None:
    """Check now, then train in a worker once the surrounding transaction commits."""
    answer_only_model_check(round_=round_)
    transaction.on_commit(lambda: task_delay("collector.answer_only_model_train", round_.pk))


def round_answer_only_model_train(*, round_: Round) -> ModelVersion:
    """Train (or retrain, replacing the weights) the round's answer-only model and attach it."""
    answer_only_model_check(round_=round_)
    examples = _examples(round_)
    config = scoring_config_for(round_=round_, kind=ScoringRun.Kind.ANSWER_ONLY)  # answer_only=True
    version = model_version_train(
        name=answer_only_model_name(round_), train_examples=examples, base=round_.base_checkpoint or None,
        config=config,
        description=f"Answer-only model (prompts blanked) of round {round_.name}, trained on {len(examples)} questions; "
        "the artifact coach asks it about drafts.",
    )
    Round.objects.filter(pk=round_.pk).update(answer_only_model=version)
    round_.answer_only_model = version
    return version
