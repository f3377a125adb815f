"""Fine-tuning a multiple-choice model and registering it, directly or as a training job.

``model_version_train`` is the one entry point: the ``train_mc_model`` command calls it, and
``round_train_next_model`` (the round page's "Train a new live model" button) calls it with every
question of the course collected so far.

Training jobs make that a visible, restartable background job: ``training_job_start`` checks the
request and queues a ``TrainingJob``; a worker runs ``training_job_run``, which reports progress on
the job (the round page shows it live) and records the error if training fails. A job is run at
most once: a second delivery of the task finds it running or finished and returns. A job whose
worker died is marked failed when a worker starts (its partial weights are never registered), so
the instructor can start it again.
"""
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from collector.models import Question, Round, ScoringRun, TrainingJob
from collector.selectors.exports import course_examples_so_far
from collector.services.hardware import worker_hardware_report
from collector.services.rounds import round_set_live_model
from collector.services.scoring import scoring_config_for
from core.exceptions import ImportFailed
from core.jobs import job_claim, job_push, jobs_resume, task_enqueue
from mlcore.configs import FineTuneConfig, MCExample, ScorerKind, ScorerSpec, TrainProgress
from mlcore.data.codah import read_codah_file
from modelhub import training as modelhub_training
from modelhub.models import ModelVersion
from modelhub.progress import TrainingJobProgress
from modelhub.training import training_job_finish

TASK_NAME = "collector.training_job_run"
# The task that runs each kind of training job (the answer-only one: ``services/coach.py``).
TASK_NAMES = {TrainingJob.Kind.NEXT_MODEL: TASK_NAME, TrainingJob.Kind.ANSWER_ONLY: "collector.answer_only_job_run",
              TrainingJob.Kind.STARTER: "collector.train_starter_model",
              TrainingJob.Kind.COMMAND: "collector.training_command_run"}  # train_mc_model: services/training_command.py

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
    course_id: int | None = None,
    eval_set: str = "",
) -> ModelVersion:
    """Fine-tune ``base`` on ``train_examples`` and register the result as version ``name``.

    The weights go to ``STUMPER_MODEL_DIR/<name>`` (replacing an earlier training of the same
    name; the new weights get a new revision). With ``eval_examples`` the saved checkpoint is
    reloaded and scored, so the metric describes exactly what will be served. ``live_round``
    gets the new version as its live model. ``course_id`` is the course whose questions these are:
    the version is its instructors' (None: public). ``eval_set`` names the evaluation questions in words
    (``metrics["eval_set"]``, shown with the accuracy on the round page). Raises ValidationError for a
    bad name, ValueError for unusable examples and ``mlcore.models.loading.ModelLoadError`` for an unloadable base.
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
            if eval_set:
                metrics["eval_set"] = eval_set
        return metrics

    return modelhub_training.model_version_train_and_register(
        name=name, kind=ModelVersion.Kind.MULTIPLE_CHOICE, base=base,
        fit=lambda base_path: MultipleChoiceTrainer(config, base_path).fit(train_examples, progress=progress),
        measure=measure,
        description=lambda base_path: description or f"Fine-tuned from {base_path} on {len(train_examples)} questions.",
        attach=None if live_round is None else (
            lambda version: round_set_live_model(round_=live_round, model_version=version)),
        course_id=course_id,
    )


def round_train_next_model(*, round_: Round, name: str, make_live_round: Round | None = None,
                           progress: Callable[[TrainProgress], None] | None = None) -> ModelVersion:
    """Fine-tune a new live model on every question of ``round_`` and the course's earlier rounds.

    It starts from the round's base checkpoint with the round's training settings (the same
    recipe the cross-validation scoring uses, so "fooled in cross-validation" predicts what the
    new model will get wrong). Each question keeps the model version that scored it live
    (``Prediction.model_version``); ``make_live_round`` gets the new version as its live model.
    """
    examples = course_examples_so_far(round_=round_)
    if not examples:
        raise ValueError(f"Round {round_.name} has no questions to train on yet.")
    config = scoring_config_for(round_=round_, kind=ScoringRun.Kind.CROSS_VALIDATION)
    return model_version_train(
        name=name, train_examples=examples, base=round_.base_checkpoint or None, config=config,
        live_round=make_live_round, progress=progress, course_id=round_.course_id,
        description=f"Fine-tuned on the {len(examples)} questions of {round_.course.name} up to round {round_.name}.",
    )


def training_job_start(*, round_: Round, name: str, make_live_round: Round | None = None,
                       user=None) -> TrainingJob:
    """Check the name and data now, store a queued job and enqueue it once the transaction commits.

    A name already registered or being trained is refused (the page must not silently retrain
    a model that other rounds may serve); ``train_mc_model`` remains the way to retrain one.
    """
    model_version_name_check(name=name)
    if ModelVersion.objects.filter(name=name).exists():
        raise ValidationError({"name": f"A model named {name!r} already exists; choose a new name."})
    if make_live_round is not None and make_live_round.course_id != round_.course_id:
        raise ValidationError({"make_live_round": "The new model can only go live in a round of the same course."})
    if not Question.objects.filter(round__course_id=round_.course_id, round__created_at__lte=round_.created_at).exists():
        raise ValidationError(f"Round {round_.name} has no questions to train on yet.")
    try:
        with transaction.atomic():
            job = TrainingJob.objects.create(round=round_, name=name, make_live_round=make_live_round,
                                             created_by=user, progress={"stage": "queued"})
    except IntegrityError:
        raise ValidationError({"name": f"A model named {name!r} is already being trained."}) from None
    job_push(job, job.status)
    transaction.on_commit(lambda: task_enqueue(TASK_NAME, job.pk))
    return job


def training_job_claim(job_id: int) -> TrainingJob | None:
    """The queued job, now this worker's and running; None otherwise (``core.jobs.job_claim``)."""
    # Only a queued job: never train twice (a job whose worker died is failed, not resumed).
    return job_claim(TrainingJob, job_id, resumable=False, stale_after=_stale_after(),
                     progress=lambda stored: {"stage": "loading"})


def _stale_after() -> timedelta:
    return timedelta(seconds=settings.STUMPER_SCORING_STALE_SECONDS)


def training_job_run(*, job_id: int) -> TrainingJob:
    """Train the job's model unless it already ran; any failure is stored on the job."""
    job = training_job_claim(job_id)
    if job is None:
        return TrainingJob.objects.get(pk=job_id)
    worker_hardware_report()  # the settings page shows what bf16=auto means on this worker
    training_job_finish(job, lambda: round_train_next_model(
        round_=job.round, name=job.name, make_live_round=job.make_live_round, progress=TrainingJobProgress(job)))
    return TrainingJob.objects.get(pk=job_id)


def training_jobs_resume_interrupted() -> int:
    """Re-enqueue queued jobs and fail the running ones whose worker went silent.

    Called when a worker starts. Training is not resumable mid-way (unlike scoring folds), so a
    job interrupted by a dead worker is failed with a message saying to start it again.
    """
    def enqueue(pk: int) -> None:
        task_enqueue(TASK_NAMES[TrainingJob.objects.values_list("kind", flat=True).get(pk=pk)], pk)

    return jobs_resume(TrainingJob, enqueue=enqueue, resumable=False, stale_after=_stale_after(),
                       stale_error="The worker stopped during training; nothing was registered. Start the training again.")
