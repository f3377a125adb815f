"""Folds are stored when a scoring run starts; resuming after deletions keeps everyone else's fold."""
from unittest import mock

import pytest

from collector.models import CVPrediction, Question, ScoringRun, ScoringRunAssignment
from collector.services.scoring import scoring_run
from collector.tests.services.conftest import start
from mlcore.configs import CATEGORY_CODES
from mlcore.models.crossval import stratified_folds, stratum_code
from mlcore.models.cv_runner import FoldRunner

LETTER = {name: letter for letter, name in CATEGORY_CODES.items()}


class WorkerKilled(BaseException):
    """Stands in for SIGKILL: not an Exception, so nothing in the service catches it."""


def spec_folds(questions, *, k=5, seed=0) -> dict[int, int]:
    """SPEC-bias §5.2 folds computed here from the questions' categories, independently of the service."""
    questions = sorted(questions, key=lambda q: q.pk)
    codes = [stratum_code("".join(LETTER[c] for c in q.categories)) for q in questions]
    assignment = stratified_folds([q.pk for q in questions], codes, k=k, rng=seed)
    return dict(zip(assignment.ids, assignment.folds))


def stored_folds(run) -> dict[int, dict[int, int]]:
    out: dict[int, dict[int, int]] = {}
    for trial, question_id, fold in ScoringRunAssignment.objects.filter(run=run).values_list("trial", "question_id", "fold"):
        out.setdefault(trial, {})[question_id] = fold
    return out


def predicted_folds(run, trial=0) -> dict[int, int]:
    return dict(CVPrediction.objects.filter(run=run, trial=trial).values_list("question_id", "fold"))


def kill_after(folds: int):
    """A ``run_fold`` that dies when asked for fold number ``folds + 1``."""
    real = FoldRunner.run_fold
    calls = []

    def run_fold(self, train, test, **kwargs):
        calls.append(1)
        if len(calls) > folds:
            raise WorkerKilled
        return real(self, train, test, **kwargs)

    return run_fold


def resume(run):
    # The owner recorded on the run is a process of this machine that no longer exists.
    run.refresh_from_db()
    owner = f"{run.progress['owner'].rsplit(':', 1)[0]}:999999999"
    ScoringRun.objects.filter(pk=run.pk).update(progress={**run.progress, "owner": owner})
    return scoring_run(run_id=run.pk)


def interrupted_run(round_, *, after_folds=2, **kwargs):
    run = start(round_, **kwargs)
    with mock.patch.object(FoldRunner, "run_fold", kill_after(after_folds)), pytest.raises(WorkerKilled):
        scoring_run(run_id=run.pk)
    return run


@pytest.mark.django_db
def test_start_stores_the_spec_folds_for_every_trial_and_the_run_uses_them(scored_round):
    run = start(scored_round, trials=2, seed=7)
    expected = spec_folds(Question.objects.filter(round=scored_round), seed=7)
    assert stored_folds(run) == {0: expected, 1: expected}
    run = scoring_run(run_id=run.pk)
    assert run.status == ScoringRun.Status.DONE, run.error
    # Same split as the service always computed (SPEC §5.2), bit for bit, in both trials.
    assert predicted_folds(run, 0) == expected and predicted_folds(run, 1) == expected
    assert run.summary["fold_questions"] == [4, 4, 4, 4, 4]


@pytest.mark.django_db
def test_questions_deleted_between_folds_leave_the_others_in_their_folds(scored_round):
    run = interrupted_run(scored_round)
    before = stored_folds(run)[0]
    assert {f for _, f in predicted_folds(run).items()} == {0, 1}  # folds 1 and 2 finished
    by_fold = {f: sorted(pk for pk, g in before.items() if g == f) for f in range(5)}
    gone = [by_fold[0][0], by_fold[3][0], by_fold[3][1]]  # one from a finished fold, two from a missing one
    Question.objects.filter(pk__in=gone).delete()
    survivors = {pk: fold for pk, fold in before.items() if pk not in gone}
    # Recomputing folds from the 17 remaining questions (what resume used to do) moves many of them.
    moved = spec_folds(Question.objects.filter(round=scored_round))
    assert sum(moved[pk] != fold for pk, fold in survivors.items()) > len(survivors) // 2

    run = resume(run)
    assert run.status == ScoringRun.Status.DONE, run.error
    assert stored_folds(run)[0] == survivors
    assert predicted_folds(run) == survivors  # each survivor predicted once, in its stored fold
    assert CVPrediction.objects.filter(run=run).count() == 17
    assert run.summary["questions"] == 17 and run.summary["fold_questions"] == [3, 4, 4, 2, 4]
    correct = CVPrediction.objects.filter(run=run, correct=True).count()
    assert run.summary["accuracy"] == pytest.approx(correct / 17)


@pytest.mark.django_db
def test_a_fold_whose_questions_were_all_deleted_is_skipped(scored_round):
    run = start(scored_round)
    emptied = [pk for pk, fold in stored_folds(run)[0].items() if fold == 4]
    Question.objects.filter(pk__in=emptied).delete()
    with mock.patch.object(FoldRunner, "run_fold", autospec=True, side_effect=FoldRunner.run_fold) as spy:
        run = scoring_run(run_id=run.pk)
    assert run.status == ScoringRun.Status.DONE, run.error
    assert spy.call_count == 4
    assert run.summary["fold_questions"] == [4, 4, 4, 4, 0]
    assert run.summary["fold_accuracy"][0][4] is None
    per_fold = [
        CVPrediction.objects.filter(run=run, fold=f, correct=True).count() / CVPrediction.objects.filter(run=run, fold=f).count()
        for f in range(4)
    ]
    assert run.summary["fold_accuracy"][0][:4] == pytest.approx(per_fold)
    assert run.summary["mean"] == pytest.approx(sum(per_fold) / 4)


@pytest.mark.django_db
def test_a_run_from_before_stored_folds_gets_them_at_resume(scored_round):
    run = interrupted_run(scored_round)
    finished = predicted_folds(run)
    ScoringRunAssignment.objects.filter(run=run).delete()  # as a run started before migration 0005
    run = resume(run)
    assert run.status == ScoringRun.Status.DONE, run.error
    expected = spec_folds(Question.objects.filter(round=scored_round))
    assert stored_folds(run) == {0: expected}
    assert {pk: expected[pk] for pk in finished} == finished  # finished folds were kept
    assert predicted_folds(run) == expected


@pytest.mark.django_db
def test_a_run_from_before_stored_folds_with_a_deletion_is_scored_again_consistently(scored_round):
    run = interrupted_run(scored_round)
    ScoringRunAssignment.objects.filter(run=run).delete()
    Question.objects.filter(pk=min(predicted_folds(run))).delete()
    run = resume(run)
    assert run.status == ScoringRun.Status.DONE, run.error
    expected = spec_folds(Question.objects.filter(round=scored_round))
    assert predicted_folds(run) == expected and len(expected) == 19


@pytest.mark.django_db
def test_questions_deleted_while_the_worker_runs_drop_out_and_the_run_completes(scored_round):
    run = start(scored_round)
    folds = stored_folds(run)[0]
    real = FoldRunner.run_fold
    doomed = {min(pk for pk, f in folds.items() if f == 0), min(pk for pk, f in folds.items() if f == 3)}

    def deletes_during_the_first_fold(self, train, test, **kwargs):
        predictions = real(self, train, test, **kwargs)
        Question.objects.filter(pk__in=doomed).delete()  # one in the fold being trained, one in a later one
        return predictions

    with mock.patch.object(FoldRunner, "run_fold", deletes_during_the_first_fold):
        run = scoring_run(run_id=run.pk)
    assert run.status == ScoringRun.Status.DONE, run.error
    survivors = {pk: f for pk, f in folds.items() if pk not in doomed}
    assert predicted_folds(run) == survivors
    assert run.summary["questions"] == 18 and run.summary["fold_questions"] == [3, 4, 4, 3, 4]
