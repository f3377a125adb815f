"""What a scoring run works on (services): its questions, the folds stored at its start, and the
summary of its out-of-fold predictions (SPEC-bias §5.2, §5.3, §5.5)."""
import logging
from collections import defaultdict

from django.db import transaction

from collector.models import Question, ScoringRun, ScoringRunAssignment
from mlcore.configs import CATEGORY_CODES, MCExample
from mlcore.models.crossval import FoldAssignment, answer_only_summary, cv_summary, stratified_folds

logger = logging.getLogger(__name__)

_LETTER = {name: letter for letter, name in CATEGORY_CODES.items()}


def examples_of(run: ScoringRun) -> tuple[list[Question], list[MCExample]]:
    """The run's questions that still exist, in snapshot order, and their examples."""
    by_id = Question.objects.in_bulk(run.question_ids)
    questions = [by_id[pk] for pk in run.question_ids if pk in by_id]  # deleted questions drop out
    examples = [
        MCExample(prompt=q.prompt, choices=tuple(q.choices), label=q.correct_index, categories=tuple(q.categories))
        for q in questions
    ]
    return questions, examples


def stratum(question: Question) -> str:
    return "".join(sorted(_LETTER[c] for c in question.categories)) or "o"


def computed_folds(run: ScoringRun, questions: list[Question]) -> dict[int, int]:
    """SPEC-bias §5.2 folds of ``questions`` under the run's seed: question id -> fold."""
    assignment = stratified_folds([q.pk for q in questions], [stratum(q) for q in questions],
                                  k=run.folds, rng=run.seed)
    return dict(zip(assignment.ids, assignment.folds))


def folds_store(run: ScoringRun, fold_of: dict[int, int]) -> None:
    """Store the folds for every trial; rows already there are kept (idempotent)."""
    ScoringRunAssignment.objects.bulk_create(
        [ScoringRunAssignment(run=run, question_id=pk, trial=trial, fold=fold)
         for trial in range(run.trials) for pk, fold in fold_of.items()],
        ignore_conflicts=True,
    )


def run_folds(run: ScoringRun, questions: list[Question]) -> dict[int, dict[int, int]]:
    """Per trial, question id -> fold as stored at the run's start, for the questions that still
    exist (in ``questions`` order, so test and train sets keep the order they always had)."""
    rows = list(run.assignments.values_list("trial", "question_id", "fold"))
    if not rows:
        _legacy_folds(run, questions)
        rows = list(run.assignments.values_list("trial", "question_id", "fold"))
    stored: dict[int, dict[int, int]] = defaultdict(dict)
    for trial, question_id, fold in rows:
        stored[trial][question_id] = fold
    return {t: {q.pk: stored[t][q.pk] for q in questions if q.pk in stored[t]} for t in range(run.trials)}


@transaction.atomic
def _legacy_folds(run: ScoringRun, questions: list[Question]) -> None:
    """Store folds for a run started before they were stored (migration 0005).

    They are computed from the run's questions that exist now, as every resume did before; that
    is the original split unless a question was deleted. If it was, folds the run finished no
    longer match the split (a question would be predicted twice or never), so they are dropped
    and scored again.
    """
    if run.assignments.exists():
        return  # another worker stored them first
    fold_of = computed_folds(run, questions)
    if any(fold_of.get(question_id) != fold for question_id, fold in run.predictions.values_list("question_id", "fold")):
        logger.warning("Scoring run %s: questions were deleted before its folds were stored; "
                       "its finished folds are scored again on the new split", run.pk)
        run.predictions.all().delete()
        run.fold_results.all().delete()
    folds_store(run, fold_of)


def finish_summary(run: ScoringRun, questions: list[Question]) -> dict:
    """The summary of the run's out-of-fold predictions (SPEC §5.3/§5.5), once every fold is stored."""
    fold_of = run_folds(run, questions)
    if any(fold_of[t] != fold_of[0] for t in range(run.trials)):
        raise ValueError("the trials of this run hold different folds; cv_summary needs one split")
    kept = [q for q in questions if q.pk in fold_of[0]]
    if not kept:
        raise ValueError("every question of this run was deleted; there is nothing to summarise")
    ids, gold = [q.pk for q in kept], [q.correct_index for q in kept]
    predicted = {(p.trial, p.question_id): p.predicted_index for p in run.predictions.all()}
    oof = [[predicted[(t, pk)] for pk in ids] for t in range(run.trials)]
    # Folds emptied by deletions are left out of the mean over folds (and shown as None).
    present = sorted(set(fold_of[0].values()))
    number = {fold: index for index, fold in enumerate(present)}
    assignment = FoldAssignment(tuple(ids), tuple(stratum(q) for q in kept),
                                tuple(number[fold_of[0][pk]] for pk in ids), len(present), "stratified", run.seed)
    result = cv_summary(gold, oof, assignment)
    sizes = dict(zip(present, assignment.fold_sizes()))
    summary = {
        "accuracy": result.statistic, "mean": result.mean, "std": None if result.std != result.std else result.std,
        "fold_accuracy": [[float(row[number[f]]) if f in number else None for f in range(run.folds)]
                          for row in result.fold_accuracy],
        "fold_questions": [sizes.get(f, 0) for f in range(run.folds)],
        "questions": len(ids),
    }
    if run.kind == ScoringRun.Kind.ANSWER_ONLY:
        answer_only = answer_only_summary(gold, oof[0])
        summary.update(answer_only_accuracy=answer_only.statistic, binomial_pvalue=answer_only.pvalue,
                       binomial_log10_pvalue=answer_only.log10_pvalue)
    return summary
