"""Fine-tuning a multiple-choice model and registering it (services level).

``model_version_train`` is the one entry point: the ``train_mc_model`` command calls it, and
``round_train_next_model`` (the round page's "Train a new live model" button, through a
``TrainingJob`` in ``collector.training_jobs``) calls it with every question of the course collected so far.
"""
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from collector import selectors, services
from collector.models import Round, ScoringRun
from collector.scoring import scoring_config_for
from core.exceptions import ImportFailed
from mlcore.configs import FineTuneConfig, MCExample, ScorerKind, ScorerSpec, TrainProgress
from mlcore.data.codah import read_codah_file
from modelhub import training as modelhub_training
from modelhub.models import ModelVersion

if TYPE_CHECKING:  # torch is imported when a model is trained, not with the URLconf
    pass

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


def model_version_name_check(*, name: str) -> None:
    """Raise ValidationError unless ``name`` can name a new fine-tuned multiple-choice version."""
    modelhub_training.model_version_name_check(name=name, kind=ModelVersion.Kind.MULTIPLE_CHOICE)


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

    config = config or FineTuneConfig()

    def measure(trainer: MultipleChoiceTrainer, directory: Path, revision: str) -> dict:
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
        return metrics

    return modelhub_training.model_version_train_and_register(
        name=name, kind=ModelVersion.Kind.MULTIPLE_CHOICE, base=base,
        fit=lambda base_path: MultipleChoiceTrainer(config, base_path).fit(train_examples, progress=progress),
        measure=measure,
        description=lambda base_path: description or f"Fine-tuned from {base_path} on {len(train_examples)} questions.",
        attach=None if live_round is None else (
            lambda version: services.round_set_live_model(round_=live_round, model_version=version)),
    )


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
