"""Folds in parallel across real Celery worker processes (PostgreSQL + Redis pass).

Two ``celery -A config worker`` processes score one run: both train folds, and the stored
cross-validation verdicts equal those of the same run (same seed) scored in one process. A worker
killed (SIGKILL) in the middle of a fold loses nothing: its fold is trained again by the other or
by a restarted worker, the folds stored before stay as they were, and the verdicts are the same.
"""
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from celery import current_app

from collector.models import CVPrediction, ScoringFold, ScoringFoldClaim, ScoringRun
from collector.services.scoring import scoring_start
from collector.tests.factories import toy_scoring_round
from tests.faults import reset_celery_pools
from tests.worker import celery_worker, wait_for

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not (os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")),
                       reason="workers sharing a run's folds need PostgreSQL and Redis (DATABASE_URL, REDIS_URL)"),
]

# A fold of the tiny model takes a second or more: time to see two workers at once, and to kill one.
FOLD_SCORING = {"epochs": 20, "batch_size": 4, "max_length": 32, "freeze_layers": 1, "threads": 1}
FOLDS = 4


@pytest.fixture
def round_to_score(open_round, student, tiny_model_dir):
    # Fresh broker pools: a test before may have closed the ones kombu shares (tests/faults.py).
    reset_celery_pools()
    return toy_scoring_round(open_round, student, tiny_model_dir, FOLD_SCORING, questions=24, seed=9)


@contextmanager
def eager() -> Iterator[None]:
    previous = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = True
    try:
        yield
    finally:
        current_app.conf.task_always_eager = previous


def single_process_verdicts(round_) -> dict[int, tuple[int, bool]]:
    """The run scored in this process, folds one after another (eager Celery), with the same seed."""
    with eager():
        run = scoring_start(round_=round_, folds=FOLDS, seed=4)  # runs on commit: autocommit here
    run.refresh_from_db()
    assert run.status == ScoringRun.Status.DONE, run.error
    return verdicts(run)


def verdicts(run) -> dict[int, tuple[int, bool]]:
    return {p.question_id: (p.predicted_index, p.correct) for p in CVPrediction.objects.filter(run=run)}


def ready(log) -> bool:
    return log.exists() and " ready." in log.read_text(errors="replace")


def held_unstored(run, pid: int) -> tuple[int, int] | None:
    """A (trial, fold) that worker ``pid`` holds and has not stored."""
    stored = set(ScoringFold.objects.filter(run=run).values_list("trial", "fold"))
    held = ScoringFoldClaim.objects.filter(run=run, owner__endswith=f":{pid}").values_list("trial", "fold")
    return next((key for key in held if key not in stored), None)


def finished(run_id: int) -> bool:
    return ScoringRun.objects.get(pk=run_id).status not in ScoringRun.ACTIVE


def test_two_workers_train_the_folds_of_one_run_with_the_single_process_verdicts(round_to_score, real_broker, tmp_path):
    reference = single_process_verdicts(round_to_score)
    logs = [tmp_path / "worker-1.log", tmp_path / "worker-2.log"]
    with celery_worker(logs[0]) as first, celery_worker(logs[1]) as second:
        wait_for(lambda: ready(logs[0]) and ready(logs[1]), timeout=90, log_path=logs[1])
        run = scoring_start(round_=round_to_score, folds=FOLDS, seed=4)
        wait_for(lambda: finished(run.pk), timeout=150, log_path=logs[0])
    run.refresh_from_db()
    assert run.status == ScoringRun.Status.DONE, run.error
    workers = {f.worker.rsplit(":", 1)[1] for f in ScoringFold.objects.filter(run=run)}
    assert workers == {str(first.pid), str(second.pid)}  # both trained folds of the one run
    assert ScoringFold.objects.filter(run=run).count() == FOLDS
    assert verdicts(run) == reference
    assert run.progress["done_folds"] == FOLDS and run.progress["stage"] == "done"


def test_a_worker_killed_mid_fold_loses_nothing(round_to_score, real_broker, tmp_path):
    reference = single_process_verdicts(round_to_score)
    logs = [tmp_path / f"worker-{n}.log" for n in (1, 2, 3)]
    with celery_worker(logs[1]) as survivor:
        with celery_worker(logs[0]) as victim:
            wait_for(lambda: ready(logs[0]) and ready(logs[1]), timeout=90, log_path=logs[0])
            run = scoring_start(round_=round_to_score, folds=FOLDS, seed=4)
            # Killed once it holds a fold (loading, training) that it has not stored.
            wait_for(lambda: held_unstored(run, victim.pid), timeout=120, interval=0.05, log_path=logs[0])
            victim.send_signal(signal.SIGKILL)  # no warm shutdown, no acknowledgement
            victim.wait()
        killed = held_unstored(run, victim.pid)
        before = {(f.trial, f.fold): (f.pk, f.finished_at) for f in ScoringFold.objects.filter(run=run)}
        assert killed not in before
        with celery_worker(logs[2]):  # the restarted worker; the survivor may take the fold first
            wait_for(lambda: finished(run.pk), timeout=150, log_path=logs[1])
        assert survivor.poll() is None  # the other worker lived on
    run.refresh_from_db()
    assert run.status == ScoringRun.Status.DONE, run.error
    folds = {(f.trial, f.fold): f for f in ScoringFold.objects.filter(run=run)}
    assert len(folds) == FOLDS
    assert all((folds[key].pk, folds[key].finished_at) == value for key, value in before.items())  # not redone
    assert not folds[killed].worker.endswith(f":{victim.pid}")
    assert CVPrediction.objects.filter(run=run).count() == 24
    assert verdicts(run) == reference
