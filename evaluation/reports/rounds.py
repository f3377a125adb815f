"""The report of a collector round: CODAH-style tables and the lexical artifacts of its completions.

``evaluation.selectors.reports.round_report_inputs`` reads the run's data snapshot;
``round_report`` turns it into sections (layout in ``evaluation/reports/sections.py``) without
touching the database, so it is tested with plain data.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from evaluation.reports.lexical import (
    LexicalInstances,
    TrialPredictions,
    choice_instances,
    choice_predictions,
    lexical_section,
)
from evaluation.reports.sections import Progress, ReportInputs, section, table, unavailable
from mlcore.configs import CATEGORIES, NUM_CHOICES
from mlcore.models.crossval import FoldAssignment, answer_only_summary, cv_summary

CHANCE = 1.0 / NUM_CHOICES


@dataclass(frozen=True)
class QuestionRecord:
    id: int
    author_id: int
    prompt: str
    choices: tuple[str, ...]
    correct_index: int
    categories: tuple[str, ...]
    updated_at: str


@dataclass(frozen=True)
class OutOfFoldPrediction:
    question_id: int
    trial: int
    fold: int
    predicted_index: int


@dataclass(frozen=True)
class ScoringRunInfo:
    id: int
    kind: str
    folds: int
    trials: int
    base_checkpoint: str
    predictions: tuple[OutOfFoldPrediction, ...]


@dataclass(frozen=True)
class RoundReportInputs(ReportInputs):
    round_name: str
    questions: tuple[QuestionRecord, ...]
    live: dict[int, tuple[int, int | None]]  # question -> (predicted index, model version id)
    cv: ScoringRunInfo | None
    answer_only: ScoringRunInfo | None
    human: tuple[tuple[int, bool], ...]  # (question id, answered correctly) per blind validator answer


def _categories(question: QuestionRecord) -> tuple[str, ...]:
    return question.categories or ("other",)


def round_report(inputs: RoundReportInputs, *, config: dict, progress: Progress) -> dict[str, dict]:
    """All sections of a round report."""
    progress("CODAH tables", 0.02)
    data, trials = _lexical_instances(inputs)
    return {
        "overview": _overview(inputs), "codah": _codah(inputs),
        "lexical": lexical_section(
            data, trials, config=config, progress=lambda stage, fraction: progress(stage, 0.1 + 0.9 * fraction),
            empty_note="The round has no questions yet.",
            no_predictions_note="No finished cross-validation scoring run: run “Score in cross-validation” on the "
                                "round page, then a new report, to test whether the model relies on these features.",
        ),
    }


def _overview(inputs: RoundReportInputs) -> dict:
    cv, ao = inputs.cv, inputs.answer_only
    summary = {
        "round": inputs.round_name,
        "questions": len(inputs.questions),
        "authors": len({q.author_id for q in inputs.questions}),
        "live_predictions": len(inputs.live),
        "cv_run": f"run {cv.id}: {cv.folds} folds × {cv.trials} trial(s) from {cv.base_checkpoint}" if cv else None,
        "answer_only_run": f"run {ao.id}: {ao.folds} folds from {ao.base_checkpoint}" if ao else None,
        "data_digest": inputs.digest()[:16],
    }
    note = "" if inputs.questions else "The round has no questions yet: write or import some, then run a new report."
    return section("Data and models", summary=summary, note=note)


@dataclass
class _Tally:
    n: int = 0
    live: list = field(default_factory=list)
    cv: list = field(default_factory=list)
    answer_only: list = field(default_factory=list)
    human: list = field(default_factory=list)


def _mean(values: list) -> float | None:
    return float(np.mean(values)) if values else None


def _per_question_flags(inputs: RoundReportInputs) -> dict[int, dict]:
    gold = {q.id: q.correct_index for q in inputs.questions}
    flags: dict[int, dict] = {q.id: {"cv": [], "human": []} for q in inputs.questions}
    for qid, (index, _) in inputs.live.items():
        if qid in flags:
            flags[qid]["live"] = index == gold[qid]
    for p in inputs.cv.predictions if inputs.cv else ():
        if p.question_id in flags:
            flags[p.question_id]["cv"].append(p.predicted_index == gold[p.question_id])
    for p in inputs.answer_only.predictions if inputs.answer_only else ():
        if p.question_id in flags and p.trial == 0:
            flags[p.question_id]["answer_only"] = p.predicted_index == gold[p.question_id]
    for qid, correct in inputs.human or ():
        if qid in flags:
            flags[qid]["human"].append(correct)
    return flags


def _codah(inputs: RoundReportInputs) -> dict:
    title = "CODAH-style results"
    if not inputs.questions:
        return unavailable(title, "The round has no questions yet.")
    flags = _per_question_flags(inputs)
    tallies: dict[str, _Tally] = defaultdict(_Tally)
    for q in inputs.questions:
        for name in (*_categories(q), "all questions"):
            tally, f = tallies[name], flags[q.id]
            tally.n += 1
            if "live" in f:
                tally.live.append(f["live"])
            if f["cv"]:
                tally.cv.append(float(np.mean(f["cv"])))
            if "answer_only" in f:
                tally.answer_only.append(f["answer_only"])
            tally.human.extend(f["human"])
    order = [c for c in CATEGORIES if c in tallies] + sorted(set(tallies) - set(CATEGORIES) - {"all questions"})
    n = len(inputs.questions)
    tables = {
        "categories": table("Questions per category (a question may have several)", ["category", "questions", "share"],
                            [[c, tallies[c].n, round(tallies[c].n / n, 4)] for c in order]),
        "accuracy_by_category": table(
            "Accuracy per category: live model, cross-validation (mean over trials), answer-only baseline, humans",
            ["category", "questions", "live_model_accuracy", "live_predictions", "cv_accuracy", "answer_only_accuracy",
             "human_accuracy", "human_answers"],
            [[c, t.n, _mean(t.live), len(t.live), _mean(t.cv), _mean(t.answer_only), _mean(t.human), len(t.human)]
             for c in [*order, "all questions"] for t in [tallies[c]]],
        ),
    }
    summary = {"questions": n, "live_model_accuracy": _mean(tallies["all questions"].live)}
    summary.update(_cv_tables(inputs, tables))
    summary.update(_answer_only_table(inputs, tables, summary.get("cv_accuracy_pooled")))
    human_note = ("Human accuracy: not yet measured. It appears here once questions have been blind-validated."
                  if not tallies["all questions"].human else "")
    charts = {
        "categories": {"kind": "bar", "title": "Questions per category", "format": "int", "x_label": "questions",
                       "y_label": "Category", "value_label": "questions",
                       "items": [{"label": c, "value": tallies[c].n} for c in order]},
        "accuracy": {
            "kind": "grouped_bar", "title": "Accuracy per category (dashed line: 25% chance)", "format": "percent",
            "x_label": "accuracy", "y_label": "Category", "value_label": "accuracy",
            "max": 1.0, "reference": {"value": CHANCE, "label": "chance"},
            "groups": [*order, "all questions"],
            "series": [{"name": name, "values": [_mean(getattr(tallies[c], attr)) for c in [*order, "all questions"]]}
                       for name, attr in (("live model", "live"), ("cross-validation", "cv"),
                                          ("answer-only", "answer_only"), ("humans", "human"))],
        },
    }
    return section(title, summary=summary, tables=tables, charts=charts, note=human_note)


def _complete_oof(info: ScoringRunInfo, questions: tuple) -> tuple[list[int], list[int], np.ndarray, list[int]]:
    """Questions predicted in every trial: ids, gold, predictions (trials x questions), folds."""
    by_question: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    for p in info.predictions:
        by_question[p.question_id][p.trial] = (p.predicted_index, p.fold)
    gold = {q.id: q.correct_index for q in questions}
    ids = sorted(qid for qid, trials in by_question.items() if qid in gold and len(trials) == info.trials)
    predictions = np.array([[by_question[qid][t][0] for qid in ids] for t in range(info.trials)], dtype=np.int64)
    folds = [by_question[qid][0][1] for qid in ids]
    return ids, [gold[qid] for qid in ids], predictions, folds


def _cv_tables(inputs: RoundReportInputs, tables: dict) -> dict:
    info = inputs.cv
    if info is None:
        return {"cv_accuracy_pooled": None}
    ids, gold, predictions, folds = _complete_oof(info, inputs.questions)
    present = sorted(set(folds))
    if len(present) < 2:
        return {"cv_accuracy_pooled": None}
    renumber = {fold: i for i, fold in enumerate(present)}
    assignment = FoldAssignment(tuple(ids), tuple("o" for _ in ids), tuple(renumber[f] for f in folds),
                                len(present), "stratified")
    result = cv_summary(gold, predictions, assignment)
    sizes = assignment.fold_sizes()
    tables["cv_folds"] = table(
        f"Cross-validation accuracy per fold (scoring run {info.id})", ["trial", "fold", "questions", "accuracy"],
        [[t + 1, present[f] + 1, sizes[f], accuracy] for t, row in enumerate(result.fold_accuracy)
         for f, accuracy in enumerate(row)],
    )
    return {"cv_accuracy_pooled": result.statistic, "cv_accuracy_mean": result.mean,
            "cv_accuracy_std": result.std, "cv_trials": result.n_trials, "cv_questions": len(ids)}


def _answer_only_table(inputs: RoundReportInputs, tables: dict, cv_accuracy: float | None) -> dict:
    info = inputs.answer_only
    if info is None:
        return {}
    ids, gold, predictions, _ = _complete_oof(info, inputs.questions)
    if not ids:
        return {}
    result = answer_only_summary(gold, predictions[0], full_cv_accuracy=cv_accuracy)
    low, _ = result.confidence_interval()
    tables["answer_only"] = table(
        f"Answer-only baseline (scoring run {info.id}): prompts blanked in training and testing",
        ["measure", "value"],
        [["accuracy", result.statistic], ["correct", result.correct], ["questions", result.n],
         ["chance (1/4)", result.chance], ["one-sided binomial test p-value", result.pvalue],
         ["log10 of the p-value", result.log10_pvalue],
         ["95% lower confidence bound", float(low)], ["gap: CV accuracy - answer-only", result.gap],
         ["questions solvable without the prompt", int(sum(result.correct_flags))]],
    )
    return {"answer_only_accuracy": result.statistic, "answer_only_pvalue": result.pvalue,
            "answer_only_log10_pvalue": result.log10_pvalue}


def _lexical_instances(inputs: RoundReportInputs) -> tuple[LexicalInstances, list[TrialPredictions]]:
    """Each completion is an instance: correct or incorrect; the model "predicts" correct for its pick."""
    questions = inputs.questions
    trials: list[TrialPredictions] = []
    if inputs.cv is not None:
        ids, _, predictions, folds = _complete_oof(inputs.cv, questions)
        if ids:
            keep = set(ids)
            questions = tuple(q for q in questions if q.id in keep)  # ids are sorted like questions
            choices = [q.choices for q in questions]
            for t in range(predictions.shape[0]):
                trials.append(TrialPredictions(t, choice_predictions(predictions[t], choices),
                                               tuple(f for f, q in zip(folds, questions) for _ in q.choices)))
    data = choice_instances([q.id for q in questions], [q.choices for q in questions],
                            [q.correct_index for q in questions])
    return data, trials
