"""Folds in parallel (``services/scoring_folds.py``): fold leases, finishing exactly once, progress
summed over folds, and the same verdicts whichever worker trains which fold, in whatever order."""
import random
import socket
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from collector.models import CVPrediction, Question, ScoringFold, ScoringFoldClaim, ScoringRun
from collector.presentation.scoring import scoring_percent
from collector.services import scoring_folds
from collector.services.scoring import scoring_run
from collector.services.scoring_folds import (
    _fold_claim,
    _run_progress_save,
    fold_claims_create,
    folds_schedule,
    scoring_finish_if_complete,
    scoring_fold_run,
)
from collector.signals import credit_changed
from collector.tests.services.conftest import start
from core.jobs import job_done
from mlcore.configs import FineTuneConfig, MCExample
from mlcore.models.cv_runner import FoldRunner

DEAD = f"{socket.gethostname()}:999999999"  # a process of this machine that does not exist


def running(round_, **kwargs) -> ScoringRun:
    run = start(round_, **kwargs)
    ScoringRun.objects.filter(pk=run.pk).update(status=ScoringRun.Status.RUNNING, heartbeat_at=timezone.now())
    run.refresh_from_db()
    fold_claims_create(run)
    return run


def as_worker(owner: str):
    return mock.patch.object(scoring_folds, "worker_owner", return_value=owner)


def verdicts(run) -> dict[tuple[int, int], tuple[int, list[float]]]:
    return {(p.trial, p.question_id): (p.predicted_index, p.probs) for p in CVPrediction.objects.filter(run=run)}


def sequential_reference(run) -> dict[tuple[int, int], int]:
    """The scoring as one worker did it before folds ran in parallel, computed here: one runner,
    folds in order, each trained with ``config.seed + trial`` on the stored folds."""
    by_id = Question.objects.in_bulk(run.question_ids)
    questions = [by_id[pk] for pk in run.question_ids]
    examples = [MCExample(prompt=q.prompt, choices=tuple(q.choices), label=q.correct_index) for q in questions]
    config = FineTuneConfig(**run.config)
    runner = FoldRunner(run.base_checkpoint, examples, config)
    fold_of = dict(run.assignments.filter(trial=0).values_list("question_id", "fold"))
    out = {}
    for trial in range(run.trials):
        for fold in range(run.folds):
            train = [i for i, q in enumerate(questions) if fold_of[q.pk] != fold]
            test = [i for i, q in enumerate(questions) if fold_of[q.pk] == fold]
            for i, p in zip(test, runner.run_fold(train, test, seed=config.seed + trial)):
                out[(trial, questions[i].pk)] = p.predicted
    return out


@pytest.mark.django_db
def test_a_fold_is_leased_to_one_worker_until_it_dies_or_goes_silent(scored_round):
    run = running(scored_round)
    with as_worker("host-a:1"):
        assert _fold_claim(run.pk, 0, 2).owner == "host-a:1"
    with as_worker("host-b:2"):
        assert _fold_claim(run.pk, 0, 2) is None  # host-a:1 beats, on another machine: alive
        assert _fold_claim(run.pk, 0, 3).owner == "host-b:2"  # another fold is free
    stale = timezone.now() - timedelta(seconds=121)
    ScoringFoldClaim.objects.filter(run=run, fold=2).update(heartbeat_at=stale)
    with as_worker("host-b:2"):
        assert _fold_claim(run.pk, 0, 2).owner == "host-b:2"  # silent for longer than the stale period
    ScoringFoldClaim.objects.filter(run=run, fold=3).update(owner=DEAD)
    with as_worker("host-c:3"):
        assert _fold_claim(run.pk, 0, 3).owner == "host-c:3"  # its process is gone: taken at once


@pytest.mark.django_db
def test_a_lease_changed_by_another_worker_between_read_and_write_is_not_taken(scored_round):
    run = running(scored_round)
    real_get_or_create = ScoringFoldClaim.objects.get_or_create

    def read_then_lose_the_race(**kwargs):
        claim, created = real_get_or_create(**kwargs)
        ScoringFoldClaim.objects.filter(pk=claim.pk).update(owner="host-z:9", heartbeat_at=timezone.now())
        return claim, created  # the stale copy still says "free"

    with as_worker("host-a:1"), mock.patch.object(ScoringFoldClaim.objects, "get_or_create", read_then_lose_the_race):
        assert _fold_claim(run.pk, 0, 0) is None
    assert ScoringFoldClaim.objects.get(run=run, fold=0).owner == "host-z:9"


@pytest.mark.django_db
def test_a_stored_fold_is_never_trained_again_and_a_held_one_is_skipped(scored_round):
    run = running(scored_round)
    ScoringFoldClaim.objects.filter(run=run, fold=1).update(owner="host-a:1", heartbeat_at=timezone.now())
    with mock.patch.object(FoldRunner, "run_fold", autospec=True, side_effect=FoldRunner.run_fold) as spy:
        assert scoring_fold_run(run_id=run.pk, trial=0, fold=0) == "stored"
        assert scoring_fold_run(run_id=run.pk, trial=0, fold=0) == "done already"
        assert scoring_fold_run(run_id=run.pk, trial=0, fold=1) == "held"
    assert spy.call_count == 1
    assert ScoringFold.objects.get(run=run, fold=0).worker == scoring_folds.worker_owner()


@pytest.mark.django_db
def test_the_last_fold_finishes_the_run_exactly_once(scored_round):
    credited = []
    credit_changed.connect(receiver := lambda **kwargs: credited.append(kwargs["round_id"]), weak=False)
    try:
        run = running(scored_round, folds=2)
        assert scoring_fold_run(run_id=run.pk, trial=0, fold=0) == "stored"
        assert not scoring_finish_if_complete(run)  # fold 1 is missing
        assert ScoringRun.objects.get(pk=run.pk).status == ScoringRun.Status.RUNNING
        assert scoring_fold_run(run_id=run.pk, trial=0, fold=1) == "finished"
        # Workers that also saw every fold stored (a redelivered task, a late sweep) change nothing.
        assert not scoring_finish_if_complete(run)
        assert scoring_fold_run(run_id=run.pk, trial=0, fold=1) == "not running"
    finally:
        credit_changed.disconnect(receiver)
    run.refresh_from_db()
    assert run.status == ScoringRun.Status.DONE and run.summary["questions"] == 20
    assert credited == [scored_round.pk]


@pytest.mark.django_db
def test_folds_in_any_order_on_fresh_workers_give_the_sequential_verdicts(scored_round):
    run = start(scored_round, folds=4, trials=2, seed=11)
    sent = []
    with mock.patch.object(scoring_folds, "scoring_fold_schedule", lambda **kw: sent.append(kw)):
        scoring_run(run_id=run.pk)  # dispatches only: the tasks are collected here
    assert sorted((s["trial"], s["fold"]) for s in sent) == [(t, f) for t in range(2) for f in range(4)]
    random.Random(5).shuffle(sent)
    for number, task in enumerate(sent):
        scoring_folds._RUNNER.clear()  # each fold on a worker that never saw this run
        with as_worker(f"host-{number % 3}:{100 + number}"), \
                mock.patch.object(scoring_folds, "scoring_fold_schedule"):
            scoring_fold_run(**task)
    run.refresh_from_db()
    assert run.status == ScoringRun.Status.DONE, run.error
    parallel = verdicts(run)
    assert {key: value[0] for key, value in parallel.items()} == sequential_reference(run)
    assert set(ScoringFold.objects.filter(run=run).values_list("worker", flat=True)) == {
        f"host-{n % 3}:{100 + n}" for n in range(8)}  # each fold records the worker that trained it

    # The same seed in one process, folds in order (eager Celery, as the embedded setup runs it).
    again = scoring_run(run_id=start_again(scored_round, run).pk)
    assert again.status == ScoringRun.Status.DONE, again.error
    assert verdicts(again) == parallel  # probabilities too, bit for bit
    assert again.summary == run.summary


def start_again(round_, run):
    return start(round_, folds=run.folds, trials=run.trials, seed=run.seed)


@pytest.mark.django_db
def test_progress_is_summed_over_the_folds_training_at_once(scored_round):
    run = running(scored_round, folds=4)
    now = timezone.now()
    ScoringFoldClaim.objects.filter(run=run, fold=0).update(owner="host-a:1", heartbeat_at=now, step=5, total_steps=10)
    ScoringFoldClaim.objects.filter(run=run, fold=1).update(owner="host-b:1", heartbeat_at=now, step=2, total_steps=10)
    ScoringFoldClaim.objects.filter(run=run, fold=2).update(  # a dead worker's fold counts no more
        owner="host-c:1", heartbeat_at=now - timedelta(hours=1), step=9, total_steps=10)
    ScoringFold.objects.create(run=run, trial=0, fold=3, accuracy=0.5, n_train=15, n_test=5, seconds=1.0)
    _run_progress_save(run, stage="training", fold=1, step=2, total_steps=10)
    progress = ScoringRun.objects.get(pk=run.pk).progress
    assert progress["done_folds"] == 1 and progress["running_folds"] == 2
    assert progress["partial_folds"] == pytest.approx(0.7)
    assert scoring_percent(ScoringRun.Status.RUNNING, progress) == pytest.approx(100 * 1.7 / 4)


@pytest.mark.django_db
def test_after_a_fold_the_worker_requeues_only_folds_whose_worker_died(scored_round):
    run = running(scored_round, folds=4)
    ScoringFoldClaim.objects.filter(run=run, fold=1).update(owner=DEAD, heartbeat_at=timezone.now())
    ScoringFoldClaim.objects.filter(run=run, fold=2).update(owner="host-b:1", heartbeat_at=timezone.now())
    sent = []
    with mock.patch.object(scoring_folds, "scoring_fold_schedule", lambda **kw: sent.append(kw["fold"])):
        assert scoring_fold_run(run_id=run.pk, trial=0, fold=0) == "stored"
        assert sent == [1]  # fold 2 is alive elsewhere, fold 3 still waits in the queue
        sent.clear()
        assert folds_schedule(run, [(0, 1), (0, 2), (0, 3)]) == 2  # a dispatch sends every fold nobody live holds
    assert sent == [1, 3]


@pytest.mark.django_db
def test_job_done_with_an_expected_status_marks_the_job_once(open_round):
    """``core.jobs.job_done(expect_status=...)``: of several workers finishing a job at once, exactly one does."""
    run = ScoringRun.objects.create(round=open_round, status="running", base_checkpoint="tiny")
    assert job_done(run, expect_status="running", summary={"accuracy": 0.5})
    assert not job_done(run, expect_status="running", summary={"accuracy": 0.9})
    run.refresh_from_db()
    assert run.status == "done" and run.summary == {"accuracy": 0.5}
