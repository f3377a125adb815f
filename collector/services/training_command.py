"""``train_mc_model`` as a training job: the command checks its arguments and starts a job; a worker trains.

``training_command_start`` reads the command's files and checks every argument now (a mistake fails at
once, before any worker spends minutes loading a model), then stores a queued ``TrainingJob`` of kind
``command`` whose ``options`` say what to train; ``training_command_run`` (the worker's task) claims
it once, reads the same files again and trains through ``model_version_train``, storing progress, the
registered version or the error on the job like every training job. The files must be readable by
the worker: the command is for an operator on the server.
"""
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from collector.models import Round, TrainingJob
from collector.selectors.exports import round_examples
from collector.services.hardware import worker_hardware_report
from collector.services.training import (
    TASK_NAMES,
    model_version_name_check,
    model_version_train,
    training_examples_from_tsv,
)
from core.jobs import job_claim, job_push, task_enqueue
from mlcore.configs import FineTuneConfig, MCExample
from modelhub.models import ModelVersion
from modelhub.progress import TrainingJobProgress
from modelhub.training import training_job_finish

HYPERPARAMETERS = ("epochs", "learning_rate", "batch_size")


def _config(options: dict) -> FineTuneConfig:
    return FineTuneConfig(**{key: options[key] for key in HYPERPARAMETERS}, threads=settings.STUMPER_TORCH_THREADS)


def _examples(options: dict) -> tuple[list[MCExample], list[MCExample]]:
    if options.get("tsv"):
        examples = training_examples_from_tsv(path=Path(options["tsv"]))
    else:
        examples = round_examples(round_=Round.objects.get(pk=options["round_id"]))
    eval_examples = training_examples_from_tsv(path=Path(options["eval_tsv"])) if options.get("eval_tsv") else []
    return examples, eval_examples


def training_command_start(*, name: str, tsv: Path | None = None, source_round: Round | None = None,
                           eval_tsv: Path | None = None, base: str | None = None, epochs: int, learning_rate: float,
                           batch_size: int, live_round: Round | None = None) -> TrainingJob:
    """Check everything now and queue the job; raises what the check found (ValidationError, ImportFailed,
    ValueError, OSError) before anything is stored.

    A model trained on a round's questions (or made live in one) is that course's instructors'; one
    trained on a file of the operator's alone is public (``course_id`` None).
    """
    if (tsv is None) == (source_round is None):
        raise ValueError("Train on either a TSV file or a round's questions.")
    options = {"tsv": str(tsv) if tsv else "", "round_id": source_round.pk if source_round else None,
               "eval_tsv": str(eval_tsv) if eval_tsv else "", "base": base or "",
               "epochs": epochs, "learning_rate": learning_rate, "batch_size": batch_size}
    _config(options)  # a bad hyperparameter raises ValueError here
    model_version_name_check(name=name)
    examples, _ = _examples(options)
    if not examples:
        raise ValueError("There are no questions to train on.")
    course_round = source_round or live_round
    options["course_id"] = course_round.course_id if course_round else None
    options["questions"] = len(examples)
    try:
        with transaction.atomic():
            job = TrainingJob.objects.create(kind=TrainingJob.Kind.COMMAND, round=course_round, name=name,
                                             make_live_round=live_round, options=options, progress={"stage": "queued"})
    except IntegrityError:
        raise ValidationError({"name": f"A model named {name!r} is already being trained."}) from None
    job_push(job, job.status)
    transaction.on_commit(lambda: task_enqueue(TASK_NAMES[TrainingJob.Kind.COMMAND], job.pk))
    return job


def training_command_run(*, job_id: int) -> TrainingJob:
    """Train what the job's ``options`` say unless it already ran; any failure is stored on the job."""
    job = job_claim(TrainingJob, job_id, resumable=False,
                    stale_after=timedelta(seconds=settings.STUMPER_SCORING_STALE_SECONDS),
                    progress=lambda stored: {"stage": "loading"})
    if job is None:
        return TrainingJob.objects.get(pk=job_id)
    worker_hardware_report()
    options = job.options

    def train() -> ModelVersion:
        examples, eval_examples = _examples(options)
        return model_version_train(name=job.name, train_examples=examples, base=options["base"] or None,
                                   config=_config(options), eval_examples=eval_examples,
                                   live_round=job.make_live_round, progress=TrainingJobProgress(job),
                                   course_id=options["course_id"])

    training_job_finish(job, train)
    return TrainingJob.objects.get(pk=job_id)
