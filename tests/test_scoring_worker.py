"""Cross-validation scoring in real Celery worker processes, one of them killed mid-run."""
import pytest

from collector.models import CVPrediction, ScoringFold, ScoringRun
from collector.services.scoring import ScoringRefused, scoring_start
from collector.tests.factories import toy_scoring_round
from tests.worker import celery_worker, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# Enough epochs that a fold of the tiny model takes a few seconds: time to kill the worker.
SLOW_TINY_SCORING = {"epochs": 40, "batch_size": 4, "max_length": 32, "freeze_layers": 1, "threads": 1}


@pytest.fixture
def round_to_score(open_round, student, tiny_model_dir):
    return toy_scoring_round(open_round, student, tiny_model_dir, SLOW_TINY_SCORING, questions=40, seed=5)


def test_killed_worker_is_resumed_by_the_next_without_redoing_folds(round_to_score, real_broker, tmp_path):
    run = scoring_start(round_=round_to_score)  # enqueued on commit (autocommit here)
    first_log, second_log = tmp_path / "worker-1.log", tmp_path / "worker-2.log"
    with celery_worker(first_log) as worker:
        wait_for(lambda: ScoringFold.objects.filter(run=run).exists(), timeout=120, log_path=first_log)
        worker.kill()  # SIGKILL: no warm shutdown, no acknowledgement
        worker.wait()
    finished_before = {(f.trial, f.fold): (f.pk, f.finished_at) for f in ScoringFold.objects.filter(run=run)}
    run.refresh_from_db()
    assert run.status == ScoringRun.Status.RUNNING
    assert 1 <= len(finished_before) < 5

    with celery_worker(second_log):
        wait_for(lambda: ScoringRun.objects.get(pk=run.pk).status != ScoringRun.Status.RUNNING,
                 timeout=240, log_path=second_log)
    run.refresh_from_db()
    assert run.status == ScoringRun.Status.DONE, run.error
    folds = {(f.trial, f.fold): (f.pk, f.finished_at) for f in ScoringFold.objects.filter(run=run)}
    assert len(folds) == 5
    assert all(folds[key] == value for key, value in finished_before.items())  # not redone
    assert CVPrediction.objects.filter(run=run).count() == 40
    assert CVPrediction.objects.filter(run=run).values("question").distinct().count() == 40


def test_second_start_while_a_worker_scores_is_refused(round_to_score, real_broker, tmp_path):
    run = scoring_start(round_=round_to_score)
    log = tmp_path / "worker.log"
    with celery_worker(log):
        wait_for(lambda: ScoringRun.objects.get(pk=run.pk).status == ScoringRun.Status.RUNNING, timeout=60, log_path=log)
        with pytest.raises(ScoringRefused, match="already in progress"):
            scoring_start(round_=round_to_score)
        wait_for(lambda: ScoringRun.objects.get(pk=run.pk).status == ScoringRun.Status.DONE, timeout=240, log_path=log)
    assert ScoringRun.objects.count() == 1
