"""A model in the loop for a project without one: train it on the project's answered questions, or
use a registered checkpoint (a folder or a hub id).

``qa_training_job_start`` checks the request and queues a ``QATrainingJob``; a worker runs
``qa_training_job_run``, which claims the job once, writes progress on it (the project page shows
it) and stores the model or the error through ``core.jobs``, as the collector's training job does
for a round. The training itself is ``annotation.services.qa_training`` (which ``train_qa_model`` calls too).
"""
import re
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.models import User
from annotation.models import Project, QATrainingJob, Split
from annotation.selectors.exports import project_squad_dict
from annotation.services.qa_training import qa_model_name_check, qa_model_train
from core.jobs import job_claim, jobs_resume, task_enqueue
from mlcore.data.bounded_json import load_json
from mlcore.stats.squad_metrics import SquadQuestion, parse_squad_json
from modelhub import services as modelhub_services
from modelhub.models import ModelVersion
from modelhub.progress import TrainingJobProgress
from modelhub.training import training_job_finish

TASK_NAME = "annotation.qa_training_job_run"
HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def project_answered_questions(*, project: Project, split: str = Split.TRAIN) -> tuple[SquadQuestion, ...]:
    """The project's submitted questions of ``split`` with their answers, as training examples."""
    return parse_squad_json(project_squad_dict(project=project, split=split)).questions


def qa_training_job_start(*, project: Project, name: str, user: User | None = None) -> QATrainingJob:
    """Check the name and the data now, store a queued job and enqueue it once the transaction commits."""
    qa_model_name_check(name=name)
    if ModelVersion.objects.filter(name=name).exists():
        raise ValidationError({"name": f"A model named {name!r} already exists; choose a new name."})
    if not project_answered_questions(project=project):
        raise ValidationError("The project has no answered train questions yet: workers must submit some first.")
    try:
        with transaction.atomic():
            job = QATrainingJob.objects.create(project=project, name=name, created_by=user, progress={"stage": "queued"})
    except IntegrityError:
        raise ValidationError("A model is already being trained for this project; wait for it to finish.") from None
    transaction.on_commit(lambda: _enqueue(job.pk))
    return job


def _enqueue(job_id: int) -> None:
    task_enqueue(TASK_NAME, job_id)  # if the broker refuses, the job stays queued and is resumed later


def _stale_after() -> timedelta:
    return timedelta(seconds=settings.STUMPER_SCORING_STALE_SECONDS)


def qa_training_job_run(*, job_id: int) -> QATrainingJob:
    """Train the job's model (it becomes the project's model in the loop) unless it already ran."""
    # Only a queued job: never train twice (a job whose worker died is failed, not resumed).
    job = job_claim(QATrainingJob, job_id, resumable=False, stale_after=_stale_after(),
                    progress=lambda stored: {"stage": "loading"})
    if job is None:
        return QATrainingJob.objects.get(pk=job_id)
    project = job.project
    if job.options:  # started by train_qa_model: its files, base and hyperparameters
        options = job.options
        training_job_finish(job, lambda: qa_model_train(
            name=job.name, questions=squad_file_questions(Path(options["path"]), limit=options["limit"]),
            eval_questions=squad_file_questions(Path(options["eval"])) if options["eval"] else (),
            base=options["base"] or None, config=_command_config(options), language=options["language"],
            project=project, progress=TrainingJobProgress(job),
        ))
        return QATrainingJob.objects.get(pk=job_id)
    training_job_finish(job, lambda: qa_model_train(
        name=job.name, questions=project_answered_questions(project=project),
        eval_questions=project_answered_questions(project=project, split=Split.VALIDATION),
        language=project.language, project=project, progress=TrainingJobProgress(job),
        description=f"Trained from the project page on {project.name}'s answered train questions.",
    ))
    return QATrainingJob.objects.get(pk=job_id)


COMMAND_HYPERPARAMETERS = ("epochs", "learning_rate", "batch_size", "max_length", "doc_stride")


def _command_config(options: dict):
    from mlcore.models.qa_finetune import QAFineTuneConfig  # imports torch and transformers: only when training

    return QAFineTuneConfig(**{key: options[key] for key in COMMAND_HYPERPARAMETERS},
                            threads=settings.STUMPER_TORCH_THREADS)


def squad_file_questions(path: Path, *, limit: int | None = None) -> tuple[SquadQuestion, ...]:
    """The questions of a SQuAD-2.0 / PQuAD file (the first ``limit``); ValueError says what is wrong with it."""
    try:
        with open(path, encoding="utf-8") as handle:
            questions = parse_squad_json(load_json(handle.read())).questions
    except OSError as error:
        raise ValueError(f"Cannot read file {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text.") from None
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
    if not questions:
        raise ValueError(f"{path} has no questions.")
    return questions[:limit] if limit else questions


def qa_training_command_start(*, name: str, path: Path, eval_path: Path | None = None, base: str | None = None,
                              language: str = "en", project: Project | None = None, limit: int | None = None,
                              **hyperparameters: float) -> QATrainingJob:
    """``train_qa_model``: check the files and every argument now, store a queued job and enqueue it.

    ``hyperparameters`` are ``COMMAND_HYPERPARAMETERS``. The worker reads the same files again: they
    must be readable there. Raises ValidationError or ValueError before anything is stored.
    """
    options = {"path": str(path), "eval": str(eval_path) if eval_path else "", "base": base or "",
               "language": language, "limit": limit, **{key: hyperparameters[key] for key in COMMAND_HYPERPARAMETERS}}
    _command_config(options)  # a bad hyperparameter raises ValueError here
    qa_model_name_check(name=name)
    options["questions"] = len(squad_file_questions(path, limit=limit))
    if eval_path:
        squad_file_questions(eval_path)
    try:
        with transaction.atomic():
            job = QATrainingJob.objects.create(project=project, name=name, options=options,
                                               progress={"stage": "queued"})
    except IntegrityError:
        raise ValidationError("A model is already being trained for this project; wait for it to finish.") from None
    transaction.on_commit(lambda: _enqueue(job.pk))
    return job


def qa_training_jobs_resume_interrupted() -> int:
    """Re-enqueue queued jobs and fail running ones whose worker went silent (called when a worker starts)."""
    return jobs_resume(QATrainingJob, enqueue=_enqueue, resumable=False, stale_after=_stale_after(),
                       stale_error="The worker stopped during training; nothing was registered. Start the training again.")


def _checkpoint_exists(source: str) -> bool:
    folder = Path(source).expanduser()
    if folder.is_dir():
        return (folder / "config.json").is_file()
    if not HUB_ID.match(source):
        return False
    from huggingface_hub import constants, try_to_load_from_cache

    # Offline (HF_HUB_OFFLINE) the hub id must already be in the local cache; online it is fetched on first use.
    return isinstance(try_to_load_from_cache(source, "config.json"), str) or not constants.HF_HUB_OFFLINE


@transaction.atomic
def project_checkpoint_use(*, project: Project, source: str, name: str = "") -> ModelVersion:
    """Make a registered checkpoint (version name, folder or hub id) the project's model in the loop.

    A folder or hub id not registered yet is registered as a question-answering version ``name``.
    """
    source = source.strip()
    source = source.rstrip("/") or source  # a folder typed with its trailing slash is the same folder
    version = (ModelVersion.objects.filter(name=source).first()
               or ModelVersion.objects.filter(path=source, kind=ModelVersion.Kind.QUESTION_ANSWERING).first())
    if version is None:
        if not _checkpoint_exists(source):
            raise ValidationError({"source": f"{source!r} is neither a registered model, a folder with a "
                                             "config.json, nor a hub id available here (owner/name)."})
        name = name.strip() or re.sub(r"[^\w.-]+", "-", source.rstrip("/").split("/")[-1])[:100]
        qa_model_name_check(name=name)
        if ModelVersion.objects.filter(name=name).exists():
            raise ValidationError({"name": f"A model named {name!r} already exists; choose another name."})
        version = modelhub_services.model_version_register(
            name=name, kind=ModelVersion.Kind.QUESTION_ANSWERING, path=source,
            description=f"Registered from the page of project {project.name}.")
    if version.kind != ModelVersion.Kind.QUESTION_ANSWERING:
        raise ValidationError({"source": f"{version.name} is a {version.get_kind_display()}, not an extractive "
                                         "question-answering model."})
    Project.objects.filter(pk=project.pk).update(qa_model=version)
    return version
