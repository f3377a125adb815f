"""Cross-validation scoring of a round (services): start a run, score it fold by fold, cancel and
resume it.

CODAH rewards a question again when a model fine-tuned on the *other* submissions still gets it
wrong. A ``ScoringRun`` snapshots the round's questions, assigns stratified folds
(``mlcore.models.crossval``) and stores each question's fold (``ScoringRunAssignment``), and for every
(trial, fold) fine-tunes the round's base checkpoint on the other folds and predicts the held-out
one. ``scoring_run`` (the run's task) only dispatches: each missing fold is its own task
(``scoring_folds.scoring_fold_run``), so N workers train N folds at once, and the worker storing the
last fold summarises the run. Each finished fold is committed with its predictions, so a run
interrupted by a killed worker resumes with only the missing folds, on the folds stored at its
start: a question deleted meanwhile is simply missing from its fold, and nothing else moves.

Cancelling (``scoring_cancel``) marks the run ``cancelled`` at once; the workers training its folds
notice between training steps (at most about a second later) and stop without storing the folds
they were on. Finished folds stay stored, so resuming (``scoring_resume``) queues the run again and
only the missing folds are trained.
"""
import dataclasses
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from collector.models import Question, Round, ScoringRun
from collector.services.scoring_data import computed_folds, examples_of, folds_store, run_folds
from collector.services.scoring_folds import (
    ScoringCancelled,
    fold_claims_create,
    folds_missing,
    folds_schedule,
    scoring_finish_if_complete,
)
from core.jobs import job_claim, job_fail, job_progress_save, job_push, jobs_resume, task_enqueue
from mlcore.configs import FineTuneConfig

__all__ = ["ScoringCancelled", "ScoringRefused", "scoring_cancel", "scoring_config_for", "scoring_resume",
           "scoring_resume_interrupted", "scoring_run", "scoring_schedule", "scoring_start"]

logger = logging.getLogger(__name__)

class ScoringRefused(Exception):
    """A scoring run cannot start now; the message says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def scoring_config_for(*, round_: Round, kind: str) -> FineTuneConfig:
    """The fast CPU preset, with the round's overrides; answer-only blanks the prompt."""
    fields = {**dataclasses.asdict(FineTuneConfig.fast_cv()), **(round_.scoring_config or {})}
    fields["answer_only"] = kind == ScoringRun.Kind.ANSWER_ONLY
    try:
        return FineTuneConfig(**fields)
    except (TypeError, ValueError) as error:
        raise ValidationError({"scoring_config": f"The round's scoring settings are invalid: {error}"}) from None


def scoring_start(
    *, round_: Round, user: User | None = None, kind: str = ScoringRun.Kind.CROSS_VALIDATION,
    folds: int = 5, trials: int = 1, seed: int = 0,
) -> ScoringRun:
    """Queue a scoring run of every question in the round now, with each question's fold stored;
    refused while one is active."""
    questions = list(Question.objects.filter(round=round_).order_by("id").only("id", "categories"))
    question_ids = [q.pk for q in questions]
    if len(question_ids) < max(folds, 2):
        raise ScoringRefused(
            f"Round {round_.name} has {len(question_ids)} question(s); {folds}-fold scoring needs at least {folds}."
        )
    config = scoring_config_for(round_=round_, kind=kind)
    run = ScoringRun(
        round=round_, kind=kind, folds=folds, trials=trials, seed=seed, created_by=user,
        base_checkpoint=round_.base_checkpoint or settings.STUMPER_BASE_CHECKPOINT,
        config=dataclasses.asdict(config), question_ids=question_ids,
        progress={"done_folds": 0, "total_folds": folds * trials},
    )
    run.full_clean(validate_constraints=False)
    with _one_active_run(refusal=lambda: _already_active(run)):
        run.save()
        folds_store(run, computed_folds(run, questions))
    job_push(run, run.status)
    transaction.on_commit(lambda: scoring_schedule(run_id=run.pk))
    return run


@contextmanager
def _one_active_run(*, refusal: Callable[[], str]) -> Iterator[None]:
    """Queue a run inside the block, atomically; the database refuses a second active run of the
    same round and kind (``one_active_scoring_run``), which becomes ``ScoringRefused(refusal())``."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise ScoringRefused(refusal()) from None


def _already_active(run: ScoringRun) -> str:
    active = ScoringRun.objects.filter(round=run.round, kind=run.kind, status__in=ScoringRun.ACTIVE).first()
    since = f" (started {active.created_at:%Y-%m-%d %H:%M} UTC)" if active else ""
    return (f"A {run.get_kind_display().lower()} run of round {run.round.name} is already in progress{since}; "
            "wait until it finishes.")


def scoring_schedule(*, run_id: int) -> None:
    task_enqueue("collector.scoring_run", run_id)


def _claim(run_id: int) -> ScoringRun | None:
    """Mark the run running unless it is finished. A run is never held by one worker (its folds
    are, each by its own lease), so any worker may dispatch it again: ``stale_after`` is zero."""
    return job_claim(ScoringRun, run_id, resumable=True, stale_after=timedelta(0),
                     progress=lambda stored: {**stored, "stage": "preparing"})


def scoring_run(*, run_id: int) -> ScoringRun:
    """Enqueue a task for every unfinished (trial, fold) that no live worker trains, or finish the
    run when none is left; idempotent (a worker starting re-dispatches every active run)."""
    run = _claim(run_id)
    if run is None:
        return ScoringRun.objects.get(pk=run_id)
    try:
        missing = folds_missing(run, run_folds(run, examples_of(run)[0]))
        fold_claims_create(run)
        job_progress_save(run, done_folds=run.fold_results.count(), stage="preparing" if missing else "done")
        if missing:
            folds_schedule(run, missing)  # eager Celery (tests, embedded): each fold runs here, in turn
        else:
            scoring_finish_if_complete(run)
    except Exception as error:
        logger.exception("Scoring run %s failed", run_id)
        if ScoringRun.objects.filter(pk=run_id, status=ScoringRun.Status.RUNNING).exists():
            job_fail(run, error)
    return ScoringRun.objects.get(pk=run_id)


def scoring_resume_interrupted() -> int:
    """Re-enqueue runs that are queued or whose worker stopped (called when a worker starts)."""
    return jobs_resume(ScoringRun, enqueue=lambda pk: scoring_schedule(run_id=pk), resumable=True,
                       stale_after=timedelta(0))


def scoring_cancel(*, run_id: int, user: User | None = None) -> ScoringRun:
    """Cancel a queued or running scoring run; refused once it has ended."""
    with transaction.atomic():
        run = ScoringRun.objects.select_for_update().get(pk=run_id)
        if run.status not in ScoringRun.ACTIVE:
            raise ScoringRefused(f"Run {run.pk} is {run.get_status_display().lower()} already; there is nothing to cancel.")
        run.status = ScoringRun.Status.CANCELLED
        run.finished_at = timezone.now()
        run.progress = {**run.progress, "cancelled_by": user.username if user else ""}
        run.save(update_fields=["status", "finished_at", "progress"])
    job_push(run, run.status)
    return run


def scoring_resume(*, run_id: int, user: User | None = None) -> ScoringRun:
    """Queue a cancelled or failed run again; it trains only the folds it has not finished.

    Refused while another run of the same kind of this round is active (one at a time).
    """
    # The refusal is only built when the save below is refused, so ``run`` is bound by then.
    with _one_active_run(refusal=lambda: (
        f"Another {run.get_kind_display().lower()} run of round {run.round.name} is in progress; "
        "cancel it or wait until it finishes before resuming this one."
    )):
        run = ScoringRun.objects.select_for_update().get(pk=run_id)
        if run.status not in (ScoringRun.Status.CANCELLED, ScoringRun.Status.FAILED):
            raise ScoringRefused(
                f"Run {run.pk} is {run.get_status_display().lower()}; only a cancelled or failed run can be resumed."
            )
        run.status, run.error, run.finished_at = ScoringRun.Status.QUEUED, "", None
        run.progress = {key: value for key, value in run.progress.items() if key != "cancelled_by"}
        run.save(update_fields=["status", "error", "finished_at", "progress"])
    job_push(run, run.status)
    transaction.on_commit(lambda: scoring_schedule(run_id=run.pk))
    return run
