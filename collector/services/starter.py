"""The starter model: a real first live model for a new installation (issue 30 §7).

At first start (``manage.py starter_model``, run by ``scripts/start.sh`` after ``seed_demo``) a
training job of kind ``starter`` is queued on the demo round while version 0 (the zero-shot scorer)
keeps serving. Its worker fine-tunes the packaged MiniLM on the public CODAH questions (from
``STUMPER_STARTER_CODAH``: a local file or the official URL, ``mlcore.data.codah_source``) minus a
seeded 10% held out, with the default scoring settings, measures it on the held-out questions and
registers it (public, like version 0) with that accuracy and a description of how it was trained.
Then it becomes the demo round's live model, unless the round's instructor changed the live model
in the meantime (the job remembers which model was live when it was queued).

Idempotent: no job is queued once the starter model exists or a starter job is queued, running or
done; a failed one (say, no data while offline) is tried again at the next start. Without data the
job fails at once with "not trained: no CODAH data (why)", which the round page shows.
"""
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction

from collector.models import Round, TrainingJob
from collector.services.demo import ROUND_NAME
from collector.services.hardware import worker_hardware_report
from collector.services.rounds import round_set_live_model
from collector.services.training import TASK_NAMES, model_version_train, training_examples_from_tsv
from core.exceptions import ImportFailed
from core.jobs import job_claim, job_fail, job_progress_save, job_push, task_enqueue
from mlcore.configs import PACKAGED_MINILM, FineTuneConfig, MCExample
from mlcore.data.codah_source import CODAH_ATTRIBUTION, CodahUnavailable, codah_holdout_split, codah_source_file
from modelhub.models import ModelVersion
from modelhub.progress import TrainingJobProgress
from modelhub.training import training_job_finish

STARTER_MODEL_NAME = "v1-minilm-codah-starter"
STARTER_BASE = PACKAGED_MINILM
HOLDOUT_FRACTION, HOLDOUT_SEED = 0.1, 0
MAX_DOWNLOAD_BYTES = 5 * 1024 * 1024  # the released file is 485,130 bytes
FETCH_TIMEOUT_SECONDS = 30.0
NO_DATA = "not trained: no CODAH data (%s)"


def starter_config() -> FineTuneConfig:
    """The default scoring settings (the fast CPU preset a round's cross-validation starts from)."""
    return FineTuneConfig.fast_cv()


def demo_starter_schedule() -> TrainingJob | None:
    """Queue the starter job on the demo round (``starter_model_schedule``); None without a demo round."""
    round_ = Round.objects.filter(name=ROUND_NAME).first()
    return None if round_ is None else starter_model_schedule(round_=round_)


def starter_model_schedule(*, round_: Round) -> TrainingJob | None:
    """Queue the starter job for ``round_`` once; None when the starter model already exists.

    A starter job that is queued, running or done is returned as it is (a second start does not
    retrain); only after a failed one is a new job queued.
    """
    if ModelVersion.objects.filter(name=STARTER_MODEL_NAME).exists():
        return None
    existing = TrainingJob.objects.filter(kind=TrainingJob.Kind.STARTER).exclude(status=TrainingJob.Status.FAILED)
    if (job := existing.first()) is not None:
        return job
    try:
        with transaction.atomic():
            job = TrainingJob.objects.create(round=round_, kind=TrainingJob.Kind.STARTER, name=STARTER_MODEL_NAME,
                                             progress={"stage": "queued", "replaces": round_.live_model_id})
    except IntegrityError:  # started twice at once: the other start queued it
        return existing.first()
    job_push(job, job.status)
    transaction.on_commit(lambda: task_enqueue(TASK_NAMES[TrainingJob.Kind.STARTER], job.pk))
    return job


def starter_examples() -> list[MCExample]:
    """The CODAH questions of ``STUMPER_STARTER_CODAH``; CodahUnavailable says why there are none."""
    try:
        path = codah_source_file(settings.STUMPER_STARTER_CODAH, cache_dir=settings.VAR_DIR / "starter",
                                 max_bytes=MAX_DOWNLOAD_BYTES, timeout=FETCH_TIMEOUT_SECONDS)
        return training_examples_from_tsv(path=path)
    except ImportFailed as error:
        first = str(error).splitlines()[1] if len(str(error).splitlines()) > 1 else str(error)
        raise CodahUnavailable(f"the file is not CODAH TSV: {first}") from error
    except (OSError, UnicodeDecodeError) as error:
        raise CodahUnavailable(f"the file could not be read: {type(error).__name__}") from error


def starter_job_run(*, job_id: int) -> TrainingJob:
    """Train the starter model unless the job already ran; no data or a failure is stored on the job."""
    job = job_claim(TrainingJob, job_id, resumable=False,
                    stale_after=timedelta(seconds=settings.STUMPER_SCORING_STALE_SECONDS),
                    progress=lambda stored: {**stored, "stage": "loading"})
    if job is None:
        return TrainingJob.objects.get(pk=job_id)
    try:
        examples = starter_examples()
    except CodahUnavailable as error:
        job_fail(job, NO_DATA % error, progress={**job.progress, "stage": "no_data"})
        return TrainingJob.objects.get(pk=job_id)
    worker_hardware_report()

    def train() -> ModelVersion:
        version = starter_model_train(examples=examples, progress=TrainingJobProgress(job))
        job_progress_save(job, live=starter_go_live(round_id=job.round_id, version=version,
                                                    replaces=job.progress.get("replaces")))
        return version

    training_job_finish(job, train)
    return TrainingJob.objects.get(pk=job_id)


def starter_model_train(*, examples: list[MCExample], progress=None) -> ModelVersion:
    """Fine-tune ``STARTER_BASE`` on ``examples`` less a seeded held-out part, measured on that part."""
    split = codah_holdout_split(len(examples), fraction=HOLDOUT_FRACTION, seed=HOLDOUT_SEED)
    train = [examples[i] for i in split.train]
    held_out = [examples[i] for i in split.test]
    config = starter_config()
    return model_version_train(
        name=STARTER_MODEL_NAME, train_examples=train, base=STARTER_BASE, config=config, eval_examples=held_out,
        progress=progress, eval_set=f"CODAH, {round(100 * HOLDOUT_FRACTION)}% held out (seed {HOLDOUT_SEED})",
        description=starter_description(config=config, trained=len(train), held_out=len(held_out)),
    )


def starter_description(*, config: FineTuneConfig, trained: int, held_out: int) -> str:
    """How the starter model was trained, in words (stored with the version, shown on the round page)."""
    frozen = f", embeddings and the {config.freeze_layers} lowest layers frozen" if config.freeze_layers else ""
    return (
        f"The packaged all-MiniLM-L6-v2 fine-tuned at first start on {trained} questions of {CODAH_ATTRIBUTION}, "
        f"with the default scoring settings ({config.epochs} epochs, learning rate {config.learning_rate:g}, "
        f"batches of {config.batch_size} questions{frozen}, seed {config.seed}). Its accuracy is measured on "
        f"{held_out} CODAH questions held out at random ({round(100 * HOLDOUT_FRACTION)}%, seed {HOLDOUT_SEED}) "
        "that it never saw in training."
    )


def starter_go_live(*, round_id: int, version: ModelVersion, replaces: int | None) -> bool:
    """Make ``version`` the round's live model if the round still serves ``replaces`` (the model live when
    the job was queued): an instructor's own choice made meanwhile is kept. True when it went live."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().filter(pk=round_id).first()
        if round_ is None or round_.live_model_id != replaces:
            return False
        round_set_live_model(round_=round_, model_version=version)
    return True
