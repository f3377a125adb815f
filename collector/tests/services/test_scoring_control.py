"""Cancel and resume a scoring run on the tiny model: the worker stops between steps or folds,
the finished folds are kept, and resuming (a real task, eager Celery) trains only the rest."""
from unittest import mock

import pytest

from collector.models import CVPrediction, ScoringFold, ScoringRun
from collector.services.scoring import ScoringCancelled, ScoringRefused, scoring_cancel, scoring_resume, scoring_run
from collector.tests.services.conftest import start
from mlcore.models.cv_runner import FoldRunner

REAL_RUN_FOLD = FoldRunner.run_fold


def _cancelling_in_fold(run_id: int, fold_number: int, *, before_training: bool, seen: list):
    """``run_fold`` that cancels the run in the n-th fold, before its training or once it is done."""

    def run_fold(self, train, test, **kwargs):
        seen.append(len(test))
        if len(seen) == fold_number and before_training:
            scoring_cancel(run_id=run_id)
        try:
            return REAL_RUN_FOLD(self, train, test, **kwargs)
        except ScoringCancelled:
            seen.append("stopped mid-fold")
            raise
        finally:
            if len(seen) == fold_number and not before_training:
                scoring_cancel(run_id=run_id)

    return run_fold


@pytest.mark.django_db
def test_cancelled_between_folds_keeps_finished_folds_and_resume_trains_only_the_rest(
        scored_round, django_capture_on_commit_callbacks):
    run = start(scored_round)
    seen: list = []
    with mock.patch.object(FoldRunner, "run_fold", _cancelling_in_fold(run.pk, 2, before_training=False, seen=seen)):
        run = scoring_run(run_id=run.pk)
    assert run.status == ScoringRun.Status.CANCELLED
    assert seen == [4, 4]  # the third fold never started
    finished = dict(ScoringFold.objects.filter(run=run).values_list("fold", "pk"))
    assert len(finished) == 2 and CVPrediction.objects.filter(run=run).count() == 8

    with mock.patch.object(FoldRunner, "run_fold", autospec=True, side_effect=REAL_RUN_FOLD) as spy, \
            django_capture_on_commit_callbacks(execute=True):
        scoring_resume(run_id=run.pk)  # queues the real task; eager Celery runs it
    run.refresh_from_db()
    assert run.status == ScoringRun.Status.DONE, run.error
    assert spy.call_count == 3
    assert {f: pk for f, pk in ScoringFold.objects.filter(run=run).values_list("fold", "pk") if f in finished} == finished
    assert CVPrediction.objects.filter(run=run).count() == 20


@pytest.mark.django_db
def test_cancelled_while_training_stops_at_the_next_step_without_storing_the_fold(scored_round):
    run = start(scored_round)
    seen: list = []
    with mock.patch.object(FoldRunner, "run_fold", _cancelling_in_fold(run.pk, 3, before_training=True, seen=seen)):
        run = scoring_run(run_id=run.pk)
    assert run.status == ScoringRun.Status.CANCELLED
    assert seen == [4, 4, 4, "stopped mid-fold"]
    assert ScoringFold.objects.filter(run=run).count() == 2
    assert run.error == ""


@pytest.mark.django_db
def test_a_queued_run_cancelled_before_a_worker_takes_it_is_never_trained(scored_round):
    run = start(scored_round)
    scoring_cancel(run_id=run.pk)
    with mock.patch.object(FoldRunner, "run_fold") as spy:
        assert scoring_run(run_id=run.pk).status == ScoringRun.Status.CANCELLED
    spy.assert_not_called()


@pytest.mark.django_db
def test_only_active_runs_cancel_and_only_ended_ones_resume(scored_round):
    run = start(scored_round)
    with pytest.raises(ScoringRefused, match="only a cancelled or failed run"):
        scoring_resume(run_id=run.pk)
    scoring_cancel(run_id=run.pk)
    with pytest.raises(ScoringRefused, match="nothing to cancel"):
        scoring_cancel(run_id=run.pk)
    # A new run of the same kind may start now; the cancelled one cannot resume beside it.
    start(scored_round)
    with mock.patch("collector.services.scoring.scoring_schedule"), \
            pytest.raises(ScoringRefused, match="is in progress"):
        scoring_resume(run_id=run.pk)
    assert ScoringRun.objects.get(pk=run.pk).status == ScoringRun.Status.CANCELLED
