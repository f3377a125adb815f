"""The two cross-validation accuracies of a scoring run, their names, and when folds are too small.

SPEC-bias §5.3 summarises a run's out-of-fold predictions in two ways, and with small or unequal
folds they differ (9 questions in 5 folds: 11.1% pooled, 10.0% averaged over folds). Every page,
API and command names them the same way, from here:

* **CV accuracy (pooled)** — the headline: correct out-of-fold predictions over all questions and
  trials, ``1 − mean fooled_cv``; it agrees with "fooled in CV / scored". Stored as
  ``summary["accuracy"]``; ``cv_accuracy_pooled`` in round stats.
* **Mean per-fold accuracy (CODAH)** — each fold's accuracy, averaged over folds without weights,
  then mean and sample std (ddof = 1) over trials, as CODAH's ``run_cv.py`` reports it; for
  comparing with the paper. ``summary["mean"]``/``["std"]``; ``cv_accuracy_mean``/``_std``.

Too few questions per fold: below ``MIN_QUESTIONS_PER_FOLD = 20`` questions one question moves a
fold's accuracy by more than 5 points and the binomial standard error of a fold near 50% exceeds 11
points, so per-fold bars, the std over trials and the gap between the two accuracies are mostly
noise (and each fold's model trained on fewer than 80 questions). Both accuracies are then shown
with :func:`small_folds_warning` next to them.
"""
from django.utils.translation import gettext as _

POOLED_LABEL = "CV accuracy (pooled)"
FOLD_MEAN_LABEL = "Mean per-fold accuracy (CODAH)"
MIN_QUESTIONS_PER_FOLD = 20


def fold_questions(summary: dict) -> list[int]:
    """Questions held out in each fold of a finished run's ``summary``.

    Runs summarised before the counts were stored have none; their folds came from the SPEC §5.2
    split of all ``questions``, whose sizes differ by at most one (the first ``n mod k`` folds hold
    the extra question), so the counts are recomputed from ``questions`` and the number of folds.
    """
    if summary.get("fold_questions"):
        return list(summary["fold_questions"])
    rows, total = summary.get("fold_accuracy") or [], summary.get("questions") or 0
    folds = len(rows[0]) if rows else 0
    if not folds or not total:
        return []
    return [total // folds + (fold < total % folds) for fold in range(folds)]


def smallest_fold(summary: dict) -> int | None:
    """Questions in the smallest fold that still holds any (folds emptied by deletions are skipped)."""
    sizes = [size for size in fold_questions(summary) if size]
    return min(sizes) if sizes else None


def small_folds_warning(summary: dict) -> str:
    """A sentence to show next to the accuracies when a fold is too small to mean much, else ``""``.

    Examples
    --------
    >>> small_folds_warning({"fold_questions": [2, 2, 2, 2, 1]})[:52]
    'Few questions per fold: the smallest holds 1 (fewer '
    >>> small_folds_warning({"fold_questions": [20, 20, 21]})
    ''
    """
    smallest = smallest_fold(summary)
    if smallest is None or smallest >= MIN_QUESTIONS_PER_FOLD:
        return ""
    return _("Few questions per fold: the smallest holds %(smallest)s (fewer than %(minimum)s), so one question "
             "moves a fold's accuracy by %(points)s points; read these accuracies as rough.") % {
        "smallest": smallest, "minimum": MIN_QUESTIONS_PER_FOLD, "points": f"{100 / smallest:.0f}"}
