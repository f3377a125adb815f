"""``services/scoring.py``: cross-validation scoring on a tiny model (folds, resume after a killed worker, credit), and
cancelling and resuming a run (the worker stops between steps or folds, the finished folds are kept, resuming trains
only the missing ones)."""
import math
import statistics
from collections import defaultdict
from fractions import Fraction
from unittest import mock

import pytest
from django.urls import reverse

from collector.models import CVPrediction, ScoringFold, ScoringFoldClaim, ScoringRun
from collector.selectors.questions import author_credit_total, question_credit, questions_of_author
from collector.selectors.rounds import round_stats
from collector.services.scoring import ScoringCancelled, ScoringRefused, scoring_cancel, scoring_resume, scoring_run
from collector.tests.services.conftest import start
from mlcore.models.cv_runner import FoldRunner


@pytest.mark.django_db
def test_too_few_questions_are_refused(open_round):
    with pytest.raises(ScoringRefused, match="needs at least 5"):
        start(open_round)


@pytest.mark.django_db
def test_second_start_while_one_is_active_is_refused(scored_round):
    start(scored_round)
    with pytest.raises(ScoringRefused, match="already in progress"):
        start(scored_round)
    assert ScoringRun.objects.count() == 1
    start(scored_round, kind=ScoringRun.Kind.ANSWER_ONLY)  # another kind may run alongside


@pytest.mark.django_db
def test_bad_round_settings_are_reported(scored_round):
    scored_round.scoring_config = {"epochs": 0}
    scored_round.save()
    with pytest.raises(Exception, match="scoring settings are invalid"):
        start(scored_round)


@pytest.mark.django_db
def test_every_question_is_scored_exactly_once_per_trial(scored_round):
    run = scoring_run(run_id=start(scored_round, trials=2).pk)
    assert run.status == ScoringRun.Status.DONE, run.error
    assert ScoringFold.objects.filter(run=run).count() == 10
    per_question = CVPrediction.objects.filter(run=run).values_list("question_id", "trial")
    assert len(per_question) == 40 and len(set(per_question)) == 40
    folds = dict(CVPrediction.objects.filter(run=run, trial=0).values_list("question_id", "fold"))
    assert sorted(list(folds.values()).count(f) for f in range(5)) == [4, 4, 4, 4, 4]
    stats = round_stats(round_=scored_round)
    assert stats["scored_cv"] == 20
    assert stats["fooled_cv"] == pytest.approx(20 * (1 - run.summary["accuracy"]))


@pytest.mark.django_db
def test_both_cv_accuracies_equal_a_computation_from_the_stored_predictions(scored_round, instructor, client):
    run = scoring_run(run_id=start(scored_round, trials=3).pk)
    assert run.status == ScoringRun.Status.DONE, run.error
    rows = list(CVPrediction.objects.filter(run=run).values_list("trial", "fold", "correct"))
    # Exact fractions, from the rows alone (SPEC §5.3): pooled over every prediction; CODAH's
    # unweighted mean over folds per trial, then mean and sample std over trials.
    pooled = Fraction(sum(correct for _, _, correct in rows), len(rows))
    by_fold = defaultdict(list)
    for trial, fold, correct in rows:
        by_fold[trial, fold].append(correct)
    per_trial = [sum(Fraction(sum(by_fold[t, f]), len(by_fold[t, f])) for f in range(5)) / 5 for t in range(3)]
    stats = round_stats(round_=scored_round)
    for value in (run.summary["accuracy"], stats["cv_accuracy_pooled"]):
        assert value == pytest.approx(float(pooled), abs=1e-12)
    for value in (run.summary["mean"], stats["cv_accuracy_mean"]):
        assert value == pytest.approx(float(statistics.mean(per_trial)), abs=1e-12)
    assert stats["cv_accuracy_std"] == pytest.approx(float(statistics.stdev(per_trial)), abs=1e-12)
    # Four questions a fold: the warning is in the stats, the API and on the page next to the number.
    assert (run.summary["fold_questions"], stats["cv_smallest_fold"]) == ([4] * 5, 4)
    assert stats["cv_warning"].startswith("Few questions per fold: the smallest holds 4 (fewer than 20)")
    client.force_login(instructor)
    api = client.get(reverse("api:round_stats", args=[scored_round.pk])).json()
    assert (api["cv_accuracy_pooled"], api["cv_accuracy_mean"], api["cv_warning"]) == (
        stats["cv_accuracy_pooled"], stats["cv_accuracy_mean"], stats["cv_warning"])
    page = client.get(reverse("collector:round_detail", args=[scored_round.pk])).content.decode()
    assert f'data-testid="cv-accuracy-pooled">{100 * float(pooled):.1f}%</dd>' in page
    assert 'data-testid="cv-warning">Few questions per fold' in page


@pytest.mark.django_db
def test_rerun_gives_the_same_folds(scored_round):
    first = scoring_run(run_id=start(scored_round).pk)
    second = scoring_run(run_id=start(scored_round).pk)
    def folds(run):
        return dict(CVPrediction.objects.filter(run=run).values_list("question_id", "fold"))
    assert folds(first) == folds(second)


class WorkerKilled(BaseException):
    """Stands in for SIGKILL: not an Exception, so nothing in the service catches it."""


@pytest.mark.django_db
def test_a_killed_run_resumes_without_redoing_finished_folds(scored_round):
    run = start(scored_round)
    real_run_fold = FoldRunner.run_fold
    calls = []

    def dies_in_third_fold(self, train, test, **kwargs):
        calls.append(len(test))
        if len(calls) == 3:
            raise WorkerKilled
        return real_run_fold(self, train, test, **kwargs)

    with mock.patch.object(FoldRunner, "run_fold", dies_in_third_fold), pytest.raises(WorkerKilled):
        scoring_run(run_id=run.pk)
    run.refresh_from_db()
    assert run.status == ScoringRun.Status.RUNNING
    finished = {(f.trial, f.fold): f.pk for f in ScoringFold.objects.filter(run=run)}
    assert len(finished) == 2

    # The owner recorded on the run is a process of this machine that no longer exists.
    ScoringRun.objects.filter(pk=run.pk).update(progress={**run.progress, "owner": f"{run.progress['owner'].rsplit(':', 1)[0]}:999999999"})
    with mock.patch.object(FoldRunner, "run_fold", autospec=True, side_effect=real_run_fold) as spy:
        run = scoring_run(run_id=run.pk)
    assert run.status == ScoringRun.Status.DONE
    assert spy.call_count == 3
    assert {(f.trial, f.fold): f.pk for f in ScoringFold.objects.filter(run=run) if (f.trial, f.fold) in finished} == finished
    assert CVPrediction.objects.filter(run=run).count() == 20


@pytest.mark.django_db
def test_folds_held_by_a_live_worker_are_left_alone(scored_round):
    run = start(scored_round)
    ScoringRun.objects.filter(pk=run.pk).update(
        status=ScoringRun.Status.RUNNING, progress={"owner": "another-host:1", "done_folds": 0, "total_folds": 5},
        heartbeat_at=run.created_at,
    )
    ScoringFoldClaim.objects.bulk_create([ScoringFoldClaim(run=run, trial=0, fold=f, owner="another-host:1",
                                                           heartbeat_at=run.created_at) for f in range(5)])
    with mock.patch("django.utils.timezone.now", return_value=run.created_at), \
            mock.patch.object(FoldRunner, "run_fold") as spy:
        assert scoring_run(run_id=run.pk).status == ScoringRun.Status.RUNNING
    spy.assert_not_called()
    assert not ScoringFold.objects.exists()


@pytest.mark.django_db
def test_failure_is_recorded_with_the_error(scored_round):
    run = start(scored_round)
    with mock.patch.object(FoldRunner, "run_fold", side_effect=RuntimeError("out of memory")):
        run = scoring_run(run_id=run.pk)
    assert run.status == ScoringRun.Status.FAILED
    assert "out of memory" in run.error
    start(scored_round)  # a failed run does not block a new one


@pytest.mark.django_db
def test_credit_adds_cross_validation_once(scored_round, student):
    scored_round.weight_cv = 2.0
    scored_round.save()
    run = scoring_run(run_id=start(scored_round).pk)
    scoring_run(run_id=run.pk)  # running a finished run again changes nothing
    questions = questions_of_author(user=student, round_=scored_round)
    fooled = {p.question_id: not p.correct for p in CVPrediction.objects.filter(run=run)}
    for question in questions:
        assert question.fooled_cv == float(fooled[question.pk])
        expected = 2.0 * fooled[question.pk]  # no live predictions for these bulk-created questions
        assert question_credit(question=question, prediction=None) == expected
    assert author_credit_total(user=student) == 2.0 * sum(fooled.values())


@pytest.mark.django_db
def test_answer_only_run_records_per_question_flags(scored_round, student):
    run = scoring_run(run_id=start(scored_round, kind=ScoringRun.Kind.ANSWER_ONLY).pk)
    assert run.status == ScoringRun.Status.DONE, run.error
    assert run.config["answer_only"] is True
    stats = round_stats(round_=scored_round)
    assert stats["answer_only_accuracy"] == pytest.approx(run.summary["accuracy"])
    assert run.summary["binomial_log10_pvalue"] == pytest.approx(math.log10(run.summary["binomial_pvalue"]))
    flags = {q.pk: q.answer_only_correct for q in questions_of_author(user=student, round_=scored_round)}
    assert set(flags.values()) <= {True, False} and len(flags) == 20


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
