"""The folds of a scoring run (services): each (trial, fold) is its own Celery task, so N workers
(or N GPUs) train N folds of one run at once.

A fold task takes its fold's lease (``ScoringFoldClaim``) with a compare-and-set, so two workers
never train the same fold; a fold whose worker died (a process of this machine that is gone) or
went silent for ``STUMPER_SCORING_STALE_SECONDS`` is taken again. A fold whose result is stored is
never trained again. Every fold trains with the seed ``config.seed + trial`` on the folds stored at
the run's start, so its predictions do not depend on which worker ran it or in which order. The
run keeps one job row: its progress is summed over the folds (``done_folds`` + the running folds'
fractions), and the worker that stores the last fold summarises the run and credits the round,
exactly once (``job_done(..., expect_status=RUNNING)`` is a conditional UPDATE).
"""
import json
import logging
import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from collector.models import CVPrediction, Question, ScoringFold, ScoringFoldClaim, ScoringRun
from collector.services.scoring_data import examples_of, finish_summary, run_folds
from collector.signals import credit_changed
from core.jobs import (
    ProgressWriter,
    held_by_another_worker,
    job_done,
    job_fail,
    job_progress_save,
    task_enqueue,
    worker_owner,
)
from mlcore.configs import FineTuneConfig, MCExample, TrainProgress
from mlcore.models.cv_runner import FoldRunner

logger = logging.getLogger(__name__)
RUNNING = ScoringRun.Status.RUNNING


class ScoringCancelled(Exception):
    """The run was cancelled (or failed in another worker) while this worker trained one of its folds."""


def scoring_stale_after() -> timedelta:
    return timedelta(seconds=settings.STUMPER_SCORING_STALE_SECONDS)


def scoring_fold_schedule(*, run_id: int, trial: int, fold: int) -> None:
    task_enqueue("collector.train_scoring_fold", run_id, trial, fold)


def folds_missing(run: ScoringRun, fold_of: dict[int, dict[int, int]]) -> list[tuple[int, int]]:
    """(trial, fold) pairs not stored yet; a fold whose every question was deleted has nothing to predict."""
    done = set(run.fold_results.values_list("trial", "fold"))
    return [(t, f) for t in range(run.trials) for f in range(run.folds)
            if (t, f) not in done and f in fold_of[t].values()]


def fold_claims_create(run: ScoringRun) -> None:
    """One free lease per (trial, fold); leases already there are kept (idempotent)."""
    ScoringFoldClaim.objects.bulk_create(
        [ScoringFoldClaim(run=run, trial=t, fold=f) for t in range(run.trials) for f in range(run.folds)],
        ignore_conflicts=True,
    )


def fold_is_claimable(claim: ScoringFoldClaim) -> bool:
    """Free, or held by a worker that died or went silent (never one that is alive and beating)."""
    return not claim.owner or not held_by_another_worker(
        running=True, owner=claim.owner, heartbeat_at=claim.heartbeat_at, stale_after=scoring_stale_after())


def folds_schedule(run: ScoringRun, pairs: list[tuple[int, int]], *, orphans_only: bool = False) -> int:
    """Enqueue a task for each of ``pairs`` that no live worker holds; with ``orphans_only`` only
    those whose worker died or went silent (free ones are still queued). Returns how many."""
    claims = {(c.trial, c.fold): c for c in run.fold_claims.all()}
    sent = 0
    for trial, fold in pairs:
        claim = claims.get((trial, fold))
        if claim is None or (fold_is_claimable(claim) and (claim.owner or not orphans_only)):
            scoring_fold_schedule(run_id=run.pk, trial=trial, fold=fold)
            sent += 1
    return sent


def _fold_claim(run_id: int, trial: int, fold: int) -> ScoringFoldClaim | None:
    """Take the fold's lease for this worker, or None when a live worker holds it.

    Compare-and-set on (owner, heartbeat) as read, so of two workers deciding at once one wins,
    on SQLite as on PostgreSQL.
    """
    claim, _ = ScoringFoldClaim.objects.get_or_create(run_id=run_id, trial=trial, fold=fold)
    if not fold_is_claimable(claim):
        return None
    me, now = worker_owner(), timezone.now()
    taken = ScoringFoldClaim.objects.filter(pk=claim.pk, owner=claim.owner).filter(
        Q(heartbeat_at=claim.heartbeat_at) if claim.heartbeat_at else Q(heartbeat_at__isnull=True)
    ).update(owner=me, heartbeat_at=now, step=0, total_steps=0)
    if not taken:
        return None
    claim.owner, claim.heartbeat_at = me, now
    return claim


def _fold_release(claim: ScoringFoldClaim) -> None:
    """Give the fold back (cancelled, failed, or this process is stopping) so another task takes it."""
    ScoringFoldClaim.objects.filter(pk=claim.pk, owner=claim.owner).update(owner="", step=0, total_steps=0)


def _run_progress_save(run: ScoringRun, **fields) -> None:
    """Write the run's progress summed over its folds; raise ``ScoringCancelled`` once it is not running.

    The run row is locked while its stored progress is merged, so workers writing at once do not
    undo each other's counts.
    """
    with transaction.atomic():
        current = ScoringRun.objects.select_for_update().filter(pk=run.pk).values_list("status", "progress").first()
        if current is None or current[0] != RUNNING:
            raise ScoringCancelled
        run.progress = current[1]
        fresh_since = timezone.now() - scoring_stale_after()
        running = [(c.step, c.total_steps) for c in run.fold_claims.exclude(owner="").filter(
            heartbeat_at__gte=fresh_since, total_steps__gt=0).only("step", "total_steps")]
        job_progress_save(run, done_folds=run.fold_results.count(), running_folds=len(running),
                          partial_folds=round(sum(step / total for step, total in running if step < total), 3),
                          **fields)


class _FoldProgress(ProgressWriter):
    """The fold's step on its lease (its heartbeat) and the run's summed progress, at most once a second;
    raises ``ScoringCancelled`` when the run was cancelled or failed meanwhile."""

    def __init__(self, run: ScoringRun, claim: ScoringFoldClaim):
        super().__init__(run)
        self.run, self.claim = run, claim

    def __call__(self, step: TrainProgress) -> None:
        now = time.monotonic()
        if now - self.last < self.every and step.step < step.total_steps:
            return
        self.last = now
        ScoringFoldClaim.objects.filter(pk=self.claim.pk).update(
            heartbeat_at=timezone.now(), step=step.step, total_steps=step.total_steps)
        progress = self.run.progress
        per_step = step.elapsed_seconds / max(step.step, 1)
        waiting = max(0, progress.get("total_folds", 0) - progress.get("done_folds", 0)
                      - progress.get("running_folds", 1))
        parallel = max(1, progress.get("running_folds", 1))
        eta = per_step * (step.total_steps - step.step) + waiting * per_step * step.total_steps / parallel
        _run_progress_save(self.run, stage="training", trial=self.claim.trial, fold=self.claim.fold, step=step.step,
                           total_steps=step.total_steps, loss=round(step.loss, 4), eta_seconds=round(eta))


# One worker often trains several folds of the same run: its frozen-layer cache is built once.
_RUNNER: dict[tuple, FoldRunner] = {}


def _runner(run: ScoringRun, questions: list[Question], examples: list[MCExample]) -> FoldRunner:
    key = (run.pk, run.created_at, run.base_checkpoint, json.dumps(run.config, sort_keys=True), tuple(q.pk for q in questions))
    if key not in _RUNNER:
        _RUNNER.clear()
        _RUNNER[key] = FoldRunner(run.base_checkpoint, examples, FineTuneConfig(**run.config))
    return _RUNNER[key]


def scoring_fold_run(*, run_id: int, trial: int, fold: int) -> str:
    """Train and store one fold of a running run, then finish the run if it was the last; idempotent.

    Returns what happened: "stored", "finished" (stored, and it was the last), "done already",
    "held" (a live worker trains it), "not running" or "stopped" (cancelled or failed).
    """
    run = ScoringRun.objects.get(pk=run_id)
    if run.status != RUNNING:
        return "not running"
    if ScoringFold.objects.filter(run=run, trial=trial, fold=fold).exists():
        return "finished" if _finish_or_fail(run) else "done already"
    claim = _fold_claim(run_id, trial, fold)
    if claim is None:
        return "held"
    stored = False
    try:
        stored = _train_and_store(run, claim)
        if stored and scoring_finish_if_complete(run):
            return "finished"
    except ScoringCancelled:
        logger.info("Scoring run %s stopped while fold %s (trial %s) trained; finished folds are kept", run_id, fold, trial)
        return "stopped"
    except Exception as error:
        logger.exception("Fold %s (trial %s) of scoring run %s failed", fold, trial, run_id)
        if ScoringRun.objects.filter(pk=run_id, status=RUNNING).exists():
            job_fail(run, error)
        return "stopped"
    finally:
        if not stored:
            _fold_release(claim)  # also when this process is stopping (BaseException): the fold is free at once
    folds_schedule(run, folds_missing(run, run_folds(run, examples_of(run)[0])), orphans_only=True)
    return "stored"


def _train_and_store(run: ScoringRun, claim: ScoringFoldClaim) -> bool:
    questions, examples = examples_of(run)
    fold_of = run_folds(run, questions)[claim.trial]
    position = {q.pk: index for index, q in enumerate(questions)}
    train_index = [position[pk] for pk, f in fold_of.items() if f != claim.fold]
    test_index = [position[pk] for pk, f in fold_of.items() if f == claim.fold]
    if not test_index:
        return False
    _run_progress_save(run, stage="training", trial=claim.trial, fold=claim.fold)
    started = time.monotonic()
    config = FineTuneConfig(**run.config)
    predictions = _runner(run, questions, examples).run_fold(
        train_index, test_index, seed=config.seed + claim.trial, progress=_FoldProgress(run, claim))
    _store_fold(run, claim, [questions[i] for i in test_index], predictions, len(train_index),
                time.monotonic() - started)
    _run_progress_save(run, stage="training")
    return True


@transaction.atomic
def _store_fold(run, claim, questions, predictions, n_train, seconds) -> None:
    if ScoringFold.objects.filter(run=run, trial=claim.trial, fold=claim.fold).exists():
        return  # another worker finished this fold first
    # Questions deleted while the fold trained lose their prediction; the lock keeps the rest.
    alive = set(Question.objects.select_for_update().filter(pk__in=[q.pk for q in questions])
                .values_list("pk", flat=True))
    rows = [
        CVPrediction(run=run, question=q, trial=claim.trial, fold=claim.fold, probs=list(p.probs),
                     predicted_index=p.predicted, correct=p.predicted == q.correct_index)
        for q, p in zip(questions, predictions) if q.pk in alive
    ]
    ScoringFoldClaim.objects.filter(pk=claim.pk).update(step=0, total_steps=0)
    if not rows:
        return
    CVPrediction.objects.bulk_create(rows)
    accuracy = sum(row.correct for row in rows) / len(rows)
    ScoringFold.objects.create(run=run, trial=claim.trial, fold=claim.fold, accuracy=accuracy, n_train=n_train,
                               n_test=len(rows), seconds=round(seconds, 2), worker=claim.owner)


def _finish_or_fail(run: ScoringRun) -> bool:
    try:
        return scoring_finish_if_complete(run)
    except Exception as error:
        logger.exception("Scoring run %s could not be summarised", run.pk)
        job_fail(run, error)
        return False


def scoring_finish_if_complete(run: ScoringRun) -> bool:
    """Summarise and mark the run done once every fold is stored; True for the one caller that did.

    Any number of workers may call it at once: the summary is the same from any of them, and
    the conditional UPDATE lets exactly one mark the run done and credit the round.
    """
    questions, _ = examples_of(run)
    if folds_missing(run, run_folds(run, questions)):
        return False
    summary = finish_summary(run, questions)
    progress = {**ScoringRun.objects.get(pk=run.pk).progress, "stage": "done", "done_folds": run.folds * run.trials,
                "eta_seconds": 0, "running_folds": 0, "partial_folds": 0}
    if not job_done(run, expect_status=RUNNING, summary=summary, progress=progress):
        return False
    credit_changed.send(sender=ScoringRun, round_id=run.round_id, user_ids=None)
    if run.kind == ScoringRun.Kind.CROSS_VALIDATION:  # new outcomes: the course's survival forecast trains again
        transaction.on_commit(lambda: task_enqueue("collector.forecast_after_scoring", run.round_id))
    return True

