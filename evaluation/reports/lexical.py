"""The lexical-artifact section of a report, from labelled instances and model predictions.

Shared by round reports (each completion is an instance labelled correct/incorrect) and span
project reports (each question labelled answerable/unanswerable). Pure: plain data in, a section
dict out (layout in ``evaluation/reports/sections.py``); the statistics are ``mlcore``'s.
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from evaluation.reports.sections import Progress, section, table, unavailable
from mlcore.bias.lexical import lexical_features
from mlcore.bias.lexical_analysis import (
    crossfit_membership,
    json_float,
    lexical_tests_dict,
    reweight_analysis,
    top_features,
)
from mlcore.bias.lexical_association import lexical_zscores, select_top_features
from mlcore.bias.permutation import lexical_membership, permutation_test_from_membership
from mlcore.bias.stratified import accuracy_by_gold, stratified_test_from_membership

TITLE = "Lexical artifacts"
# Forced choice (CODAH rounds): every completion is an instance with one of these labels.
CHOICE_LABELS = ("correct", "incorrect")
STRATIFIED_WORDS = ("Stratified by gold label (exact test, SPEC §2.5): U and N are compared only within each gold "
                    "label, so a model whose accuracy differs between labels whatever the words (a random picker "
                    "on forced choice, a QA model that answers almost everything) is not flagged")
UNSTRATIFIED_WORDS = "unstratified (Serrano et al. §3, assumes equal chance per slot)"


def auto_min_count(n_instances: int) -> int:
    """``F_R``'s minimum count when the user gives none: 1% of the instances, between 5 and the
    paper's 100 (which was chosen for SNLI's 550k instances and leaves small rounds no features)."""
    return int(min(100, max(5, math.ceil(n_instances / 100))))


@dataclass(frozen=True)
class LexicalInstances:
    """Labelled instances with a key for the weights table (e.g. ``(question_id, choice)``)."""

    keys: tuple[tuple, ...]
    texts: tuple[str, ...]
    labels: tuple[str, ...]
    label_set: tuple[str, ...]
    key_columns: tuple[str, ...]


def choice_instances(keys: Sequence[Hashable], choices: Sequence[Sequence[str]],
                     correct: Sequence[int]) -> LexicalInstances:
    """Forced-choice questions as lexical instances: each completion is one instance, labelled
    ``correct`` or ``incorrect``, its features from the completion text alone.

    The one place that builds them, for the round report and ``manage.py lexical_bias_mc``.

    Examples
    --------
    >>> data = choice_instances([7], [("ran.", "sat.")], [1])
    >>> data.keys, data.texts, data.labels
    (((7, 0), (7, 1)), ('ran.', 'sat.'), ('incorrect', 'correct'))
    """
    return LexicalInstances(
        keys=tuple((key, c) for key, options in zip(keys, choices) for c in range(len(options))),
        texts=tuple(text for options in choices for text in options),
        labels=tuple(CHOICE_LABELS[0] if c == right else CHOICE_LABELS[1]
                     for options, right in zip(choices, correct) for c in range(len(options))),
        label_set=CHOICE_LABELS,
        key_columns=("question_id", "choice_index"),
    )


def choice_predictions(picks: Sequence[int], choices: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The model "predicts" ``correct`` for the completion it picked and ``incorrect`` for the others.

    Examples
    --------
    >>> choice_predictions([1], [("ran.", "sat.", "sang.")])
    ('incorrect', 'correct', 'incorrect')
    """
    return tuple(CHOICE_LABELS[0] if c == pick else CHOICE_LABELS[1]
                 for pick, options in zip(picks, choices) for c in range(len(options)))


@dataclass(frozen=True)
class TrialPredictions:
    """One cross-validation trial: a predicted label and a fold for every instance."""

    trial: int
    predictions: tuple[str, ...]
    folds: tuple[int, ...]


@dataclass(frozen=True)
class HeldOutPredictions:
    """A model's predictions on a held-out split (statistics come from the training instances)."""

    name: str
    texts: tuple[str, ...]
    gold: tuple[str, ...]
    predictions: tuple[str, ...]


def lexical_section(
    data: LexicalInstances,
    trials: Sequence[TrialPredictions] = (),
    *,
    held_out: HeldOutPredictions | None = None,
    config: dict,
    progress: Progress,
    empty_note: str,
    no_predictions_note: str,
) -> dict:
    """Top features, the permutation test (one per cross-validation trial, or on a held-out
    split), reweighting, label balance and the bigram check; ``empty_note`` says why there is
    nothing when there are no instances yet, ``no_predictions_note`` why there is no test."""
    if not data.labels:
        return unavailable(TITLE, empty_note)
    if len(data.labels) < 2 or len(set(data.labels)) < 2:
        return section(TITLE, available=False, note="Lexical statistics need instances of at least two labels; "
                       f"this data has {len(data.labels)} instance(s) with labels {sorted(set(data.labels))}.")
    k, p0 = int(config["k"]), config["p0"]
    progress("Counting unigram features", 0.0)
    features = lexical_features(data.texts)
    zscores = lexical_zscores(features, data.labels, label_set=data.label_set, p0=p0)
    selection = select_top_features(zscores, k=k)
    tables = {"top_features": _top_features_table(zscores, selection)}
    tests = []
    for index, trial in enumerate(trials):
        progress(f"Permutation test, trial {trial.trial + 1}", 0.05 + 0.1 * index / max(len(trials), 1))
        membership = crossfit_membership(features, data.labels, trial.predictions, trial.folds,
                                         label_set=data.label_set, k=k, p0=p0)
        tests.append((f"trial {trial.trial + 1}, out-of-fold", membership))
    if held_out is not None and held_out.texts:
        progress(f"Permutation test on {held_out.name}", 0.1)
        test_features = lexical_features(held_out.texts, vocabulary=selection.features)
        tests.append((held_out.name, lexical_membership(test_features, held_out.gold, held_out.predictions,
                                                        zscores=zscores, selection=selection)))
    tests = [(name, _both_tests(membership)) for name, membership in tests]
    if tests:
        tables["permutation_tests"] = _tests_table(tests)
        tables["strata"] = _strata_table(tests)
    min_count = config.get("min_count") or auto_min_count(len(data.labels))
    max_steps = int(config["max_steps"])

    def step(done: int, total: int) -> None:
        progress(f"Reweighting, Adam step {done} of {total}", 0.15 + 0.8 * done / max(total, 1))

    analysis = reweight_analysis(data.texts, data.labels, label_set=data.label_set, min_count=min_count,
                                 max_steps=max_steps, balance_features=selection.features,
                                 seed=int(config["seed"]), progress=step)
    progress("Label balance and bigram check", 0.97)
    rw = analysis.to_dict()
    tables["reweighting"] = _reweighting_table(rw)
    tables["label_balance"] = _balance_table(rw["label_balance"], selection.selected_for)
    tables["weights"] = table(
        "Instance weights n·q (mean 1) for weighted training: add them to a dataset export",
        [*data.key_columns, "label", "weight"],
        ([*key, label, round(float(w), 6)] for key, label, w in zip(data.keys, data.labels, analysis.result.weights)),
    )
    summary = {
        "instances": len(data.labels), "labels": ", ".join(data.label_set), "k": k, "p0": p0,
        "features_selected": len(selection), "vocabulary": len(zscores.vocabulary),
        "reweighting_min_count": int(min_count), "features_reweighted": rw["features_used"],
        "err_initial": rw["err_initial"], "err_final": rw["err_final"], "ess": rw["ess"],
        "bigram_lb_uniform": rw["bigram_lb_uniform"], "bigram_lb_q": rw["bigram_lb_q"],
    }
    if tests:
        summary.update(_test_summary(*tests[0]))
    note = _gold_accuracy_note(tests) if tests else no_predictions_note
    return section(TITLE, summary=summary, tables=tables, note=note,
                   charts={"label_balance": _figure2(rw["label_balance"])})


def _top_features_table(zscores, selection) -> dict:
    rows = []
    for label, features in top_features(zscores, selection).items():
        for rank, feature in enumerate(features, start=1):
            rows.append([str(label), rank, feature.feature, json_float(feature.z, 4), feature.count, feature.n])
    return table("Top features per label (z-score against the null, stop words excluded)",
                 ["label", "rank", "feature", "z", "count_with_label", "count"], rows)


def _both_tests(membership) -> dict:
    out = lexical_tests_dict(permutation_test_from_membership(membership), stratified_test_from_membership(membership),
                             stratify="gold")
    gold = accuracy_by_gold(membership)
    out["gold_accuracy_differs"], out["gold_accuracy_pvalue"] = gold.differs, json_float(gold.pvalue)
    return out


def _test_summary(name: str, t: dict) -> dict:
    """The headline: the stratified p-value with its meaning in words, the unstratified one beside it."""
    plain = t["unstratified_test"]
    return {
        "permutation_test": name, "lexical_test": STRATIFIED_WORDS, "pvalue_stratified": t["pvalue_display"],
        "log10_pvalue_stratified": t["log10_pvalue"], "correct_in_usual": t["a"],
        "expected_correct_in_usual": t["expected_a"],
        "acc_usual": t["acc_U"], "acc_unusual": t["acc_N"],
        "pvalue_unstratified": f"{plain['pvalue_display']} — {UNSTRATIFIED_WORDS}",
    }


def _gold_accuracy_note(tests: list[tuple[str, dict]]) -> str:
    if not any(t["gold_accuracy_differs"] for _, t in tests):
        return ""
    return ("Accuracy differs between gold labels (chi-squared p < 0.01), as it does by construction on forced "
            "choice: the unstratified p-value is then miscalibrated (even a model that ignores the words gets a "
            "tiny one); read the stratified p-value and the per-label table.")


def _tests_table(tests: list[tuple[str, dict]]) -> dict:
    rows = [
        [name, t["n_U"], t["n_N"], t["n_overlap"], t["a"], t["expected_a"], t["b"], json_float(t["acc_U"], 4),
         json_float(t["acc_N"], 4), t["pvalue"], t["log10_pvalue"], t["pvalue_display"], t["degenerate"],
         t["unstratified_test"]["pvalue"], t["unstratified_test"]["log10_pvalue"],
         t["unstratified_test"]["pvalue_display"]]
        for name, t in tests
    ]
    return table(
        "Usual vs unusual label: exact one-sided permutation test stratified by gold label (out-of-fold: features "
        "from the other folds); the last three columns are the unstratified test (Serrano et al. §3, assumes equal "
        "chance per slot)",
        ["predictions", "n_U", "n_N", "n_overlap", "a", "expected_a", "b", "acc_U", "acc_N", "pvalue", "log10_pvalue",
         "p_display", "degenerate", "unstratified_pvalue", "unstratified_log10_pvalue", "unstratified_p_display"],
        rows,
    )


def _strata_table(tests: list[tuple[str, dict]]) -> dict:
    rows = [
        [name, s["label"], s["n_U"], s["n_N"], s["a"], s["expected_a"], s["b"], json_float(s["acc_U"], 4),
         json_float(s["acc_N"], 4), s["M"], s["K"], s["degenerate"]]
        for name, t in tests for s in t["strata"]
    ]
    return table(
        "Per gold label: the stratified test compares U and N only within each row (E[A]: right in U by chance "
        "alone)",
        ["predictions", "gold_label", "n_U", "n_N", "a", "expected_a", "b", "acc_U", "acc_N", "M", "K", "degenerate"],
        rows,
    )


def _reweighting_table(rw: dict) -> dict:
    rows = [
        ["Err (target 1/|Y|)", rw["err_initial"], rw["err_final"]],
        ["Err_marg (target: label marginal)", rw["err_marg_initial"], rw["err_marg_final"]],
        ["Loss (sum of squares)", rw["loss_initial"], rw["loss_final"]],
        ["Mean label balance of 200 random bigrams", rw["bigram_lb_uniform"], rw["bigram_lb_q"]],
        ["Effective sample size", rw["n_instances"], rw["ess"]],
        ["Largest weight n·q", 1.0, rw["max_weight"]],
        ["Features reweighted (count ≥ min count, seen with every label)", rw["features_used"], rw["features_used"]],
        ["Adam steps", 0, rw["n_steps"]],
    ]
    return table("Reweighting: uniform weights vs learned q", ["measure", "uniform", "reweighted"], rows)


def _balance_table(balance: list[dict], selected_for: dict) -> dict:
    rows = [
        [item["feature"], ", ".join(map(str, selected_for.get(item["feature"], ()))), item["lb_uniform"], item["lb_q"],
         None if item["lb_q"] is None or item["lb_uniform"] is None else round(item["lb_q"] - item["lb_uniform"], 6)]
        for item in balance
    ]
    return table("Label balance of the selected features, uniform vs reweighted (lower is more balanced)",
                 ["feature", "selected_for", "lb_uniform", "lb_q", "change"], rows)


def _figure2(balance: list[dict]) -> dict:
    points = [
        {"x": item["lb_uniform"], "y": item["lb_q"], "label": item["feature"],
         "highlight": item["lb_q"] is not None and item["lb_uniform"] is not None
         and item["lb_q"] > item["lb_uniform"] + 1e-9}
        for item in balance
    ]
    return {
        "kind": "scatter",
        "title": "Label balance of the selected features, before and after reweighting",
        "subtitle": "lower is more balanced: points below the diagonal improved",
        "x_label": "label balance, uniform weights", "y_label": "label balance, reweighted", "diagonal": True,
        "highlight_label": "got worse", "other_label": "improved or unchanged",
        "points": points,
    }
