"""``presentation/cv_accuracy.py``: fold sizes of a run's summary (also of runs from before they were stored) and the warning."""
import pytest

from collector.presentation.cv_accuracy import (
    MIN_QUESTIONS_PER_FOLD,
    fold_questions,
    small_folds_warning,
    smallest_fold,
)
from mlcore.models.crossval import stratified_folds


def test_stored_fold_sizes_are_used_as_they_are():
    assert fold_questions({"fold_questions": [3, 4, 0], "questions": 99, "fold_accuracy": [[1, 1, None]]}) == [3, 4, 0]


@pytest.mark.parametrize(("n", "k"), [(9, 5), (20, 5), (23, 4), (101, 10), (7, 2)])
def test_sizes_of_older_summaries_match_the_spec_split(n, k):
    # Before fold sizes were stored: recomputed from the question count, as SPEC §5.2 sizes them.
    split = stratified_folds(range(n), ["o", "n", "i"] * (n // 3) + ["o"] * (n % 3), k=k, rng=0)
    summary = {"questions": n, "fold_accuracy": [[0.5] * k]}
    assert fold_questions(summary) == list(split.fold_sizes())


def test_no_folds_no_sizes():
    assert fold_questions({}) == [] and smallest_fold({}) is None and small_folds_warning({}) == ""


def test_emptied_folds_do_not_count_as_the_smallest():
    assert smallest_fold({"fold_questions": [25, 0, 22]}) == 22
    assert small_folds_warning({"fold_questions": [25, 0, 22]}) == ""


def test_the_warning_starts_below_the_threshold():
    assert MIN_QUESTIONS_PER_FOLD == 20
    assert small_folds_warning({"fold_questions": [20, 21]}) == ""
    warning = small_folds_warning({"fold_questions": [19, 21]})
    assert warning == ("Few questions per fold: the smallest holds 19 (fewer than 20), so one question moves a "
                       "fold's accuracy by 5 points; read these accuracies as rough.")
