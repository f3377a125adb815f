"""Fine-tuning a multiple-choice model and registering it (services level).

``model_version_train`` is the one entry point: the ``train_mc_model`` command calls it, and
``round_train_next_model`` (the round page's "Train a new live model" button, through a
``TrainingJob`` in ``collector.training_jobs``) calls it with every question of the course collected so far.
"""
import shutil
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

from collector import selectors, services
from collector.exceptions import ImportFailed
from collector.models import (
    ModelVersion,
    Round,
    ScoringRun,
    round_name_validator,
)
from collector.scoring import scoring_config_for
from mlcore.configs import FineTuneConfig, MCExample, ScorerKind, ScorerSpec, TrainProgress
from mlcore.data.codah import read_codah_file
from mlcore.models.loading import weights_revision

if TYPE_CHECKING:  # torch is imported when a model is trained, not with the URLconf
    from mlcore.models.finetune import MultipleChoiceTrainer

# Training files are the instructor's own (often the public CODAH release, which repeats a
# distractor in 3 rows and has long prompts), not student input: accept what the tokenizer can
# truncate instead of the authoring limits.
_TRAINING_FILE_LIMITS = {"max_prompt_chars": 10_000, "max_choice_chars": 10_000, "allow_duplicate_choices": True}


def training_examples_from_tsv(*, path: Path) -> list[MCExample]:
    """Labelled examples of a CODAH TSV file; any bad row raises ImportFailed with its line."""
    result = read_codah_file(path, **_TRAINING_FILE_LIMITS)  # OSError / UnicodeDecodeError propagate
    if result.errors:
        raise ImportFailed([(error.line, error.message) for error in result.errors])
    if not result.examples:
        raise ImportFailed([(1, f"{path} has no questions")])
    return list(result.examples)


def _resolve_base(base: str) -> tuple[str, ModelVersion | None]:
    """A registered version's name or a checkpoint path/hub id -> (path, version if registered)."""
    version = ModelVersion.objects.filter(name=base).first()
    if version is not None:
        return version.path, version
    return base, ModelVersion.objects.filter(path=base).first()


def model_version_name_check(*, name: str) -> None:
    """Raise ValidationError unless ``name`` can name a new fine-tuned version (and its folder)."""
    # The name becomes a folder under STUMPER_MODEL_DIR, so it must be a safe path component.
    try:
        round_name_validator(name)
    except ValidationError as error:
        raise ValidationError({"name": error.messages}) from None
    existing = ModelVersion.objects.filter(name=name).first()
    if existing is not None and existing.kind != ModelVersion.Kind.MULTIPLE_CHOICE:
        raise ValidationError({"name": f"{name!r} is already registered as a {existing.get_kind_display()}."})


def save_replacing(trainer: "MultipleChoiceTrainer", directory: Path) -> Path:
    """Save next to ``directory`` and then swap it in, so the registered folder is never half-written."""
    directory.parent.mkdir(parents=True, exist_ok=True)
    partial = directory.with_name(f".{directory.name}.partial-{uuid.uuid4().hex[:8]}")
    trainer.save(partial)
    if directory.exists():
        retired = directory.with_name(f".{directory.name}.old-{uuid.uuid4().hex[:8]}")
        directory.rename(retired)
        partial.rename(directory)
        shutil.rmtree(retired, ignore_errors=True)
    else:
        partial.rename(directory)
    return directory


def model_version_train(
    *,
    name: str,
    train_examples: Sequence[MCExample],
    base: str | None = None,
    config: FineTuneConfig | None = None,
    eval_examples: Sequence[MCExample] = (),
    live_round: Round | None = None,
    progress: Callable[[TrainProgress], None] | None = None,
    description: str = "",
) -> ModelVersion:
    """Fine-tune ``base`` on ``train_examples`` and register the result as version ``name``.

    The weights go to ``STUMPER_MODEL_DIR/<name>`` (replacing an earlier training of the same
    name; the new weights get a new revision). With ``eval_examples`` the saved checkpoint is
    reloaded and scored, so the metric describes exactly what will be served. ``live_round``
    gets the new version as its live model. Raises ValidationError for a bad name, ValueError
    for unusable examples and ``mlcore.models.loading.ModelLoadError`` for an unloadable base.
    """
    from mlcore.models.finetune import MultipleChoiceTrainer
    from mlcore.models.inference import MultipleChoiceModelScorer
    from mlcore.models.training import evaluate_accuracy

    model_version_name_check(name=name)
    config = config or FineTuneConfig()
    base_path, base_version = _resolve_base(base or settings.STUMPER_BASE_CHECKPOINT)
    trainer = MultipleChoiceTrainer(config, base_path).fit(train_examples, progress=progress)
    directory = save_replacing(trainer, Path(settings.STUMPER_MODEL_DIR) / name)
    revision = weights_revision(str(directory))
    metrics: dict = {
        "eval_accuracy": None,
        "eval_examples": 0,
        "train_examples": len(train_examples),
        "epochs": config.epochs,
        "train_loss": trainer.history_[-1] if trainer.history_ else None,
        # e.g. "float32 (AVX2, no native bfloat16)": what the bf16 setting became on this worker
        "precision": trainer.hardware_.summary(),
    }
    if eval_examples:
        spec = ScorerSpec(kind=ScorerKind.MULTIPLE_CHOICE, path=str(directory), name=name, revision=revision)
        result = evaluate_accuracy(MultipleChoiceModelScorer(spec), eval_examples)
        metrics.update(eval_accuracy=result.accuracy, eval_examples=result.n)
    with transaction.atomic():
        version = services.model_version_register(
            name=name,
            kind=ModelVersion.Kind.MULTIPLE_CHOICE,
            path=str(directory),
            revision=revision,
            metrics=metrics,
            description=description or f"Fine-tuned from {base_path} on {len(train_examples)} questions.",
            base=base_version,
        )
        if live_round is not None:
            services.round_set_live_model(round_=live_round, model_version=version)
    return version


def round_train_next_model(*, round_: Round, name: str, make_live_round: Round | None = None,
                           progress: Callable[[TrainProgress], None] | None = None) -> ModelVersion:
    """Fine-tune a new live model on every question of ``round_`` and the course's earlier rounds.

    It starts from the round's base checkpoint with the round's training settings (the same
    recipe the cross-validation scoring uses, so "fooled in cross-validation" predicts what the
    new model will get wrong). Each question keeps the model version that scored it live
    (``Prediction.model_version``); ``make_live_round`` gets the new version as its live model.
    """
    examples = selectors.course_examples_so_far(round_=round_)
    if not examples:
        raise ValueError(f"Round {round_.name} has no questions to train on yet.")
    config = scoring_config_for(round_=round_, kind=ScoringRun.Kind.CROSS_VALIDATION)
    return model_version_train(
        name=name, train_examples=examples, base=round_.base_checkpoint or None, config=config,
        live_round=make_live_round, progress=progress,
        description=f"Fine-tuned on the {len(examples)} questions of {round_.course.name} up to round {round_.name}.",
    )
