"""The lexical-artifact section of a report, from labelled instances and model predictions.

Shared by round reports (each completion is an instance labelled correct/incorrect) and span
project reports (each question labelled answerable/unanswerable). Pure: plain data in, a section
dict out (layout in ``evaluation/sections.py``); the statistics are ``mlcore``'s.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from evaluation.sections import section, table
from mlcore.lexical import lexical_features
from mlcore.lexical_analysis import (
    crossfit_lexical_bias_test,
    json_float,
    permutation_test_dict,
    reweight_analysis,
    top_features,
)
from mlcore.lexical_association import lexical_zscores, select_top_features
from mlcore.permutation import lexical_bias_test

# Progress callback: (stage text, fraction of this section done in [0, 1]).
Progress = Callable[[str, float], None]

TITLE = "Lexical artifacts"


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
    no_predictions_note: str,
) -> dict:
    """Top features, the permutation test (one per cross-validation trial, or on a held-out
    split), reweighting, label balance and the bigram check."""
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
        result = crossfit_lexical_bias_test(features, data.labels, trial.predictions, trial.folds,
                                            label_set=data.label_set, k=k, p0=p0)
        tests.append((f"trial {trial.trial + 1}, out-of-fold", permutation_test_dict(result)))
    if held_out is not None and held_out.texts:
        progress(f"Permutation test on {held_out.name}", 0.1)
        test_features = lexical_features(held_out.texts, vocabulary=selection.features)
        result = lexical_bias_test(test_features, held_out.gold, held_out.predictions, zscores=zscores,
                                   selection=selection)
        tests.append((held_out.name, permutation_test_dict(result)))
    if tests:
        tables["permutation_tests"] = _tests_table(tests)
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
        first = tests[0][1]
        summary.update(permutation_test=tests[0][0], pvalue=first["pvalue_display"], log10_pvalue=first["log10_pvalue"],
                       acc_usual=first["acc_U"], acc_unusual=first["acc_N"])
    note = "" if tests else no_predictions_note
    return section(TITLE, summary=summary, tables=tables, note=note,
                   charts={"label_balance": _figure2(rw["label_balance"])})


def _top_features_table(zscores, selection) -> dict:
    rows = []
    for label, features in top_features(zscores, selection).items():
        for rank, feature in enumerate(features, start=1):
            rows.append([str(label), rank, feature.feature, json_float(feature.z, 4), feature.count, feature.n])
    return table("Top features per label (z-score against the null, stop words excluded)",
                 ["label", "rank", "feature", "z", "count_with_label", "count"], rows)


def _tests_table(tests: list[tuple[str, dict]]) -> dict:
    rows = [
        [name, t["n_U"], t["n_N"], t["n_overlap"], t["a"], t["b"], json_float(t["acc_U"], 4),
         json_float(t["acc_N"], 4), t["pvalue"], t["log10_pvalue"], t["pvalue_display"], t["degenerate"]]
        for name, t in tests
    ]
    return table(
        "Usual vs unusual label: exact one-sided permutation test (out-of-fold: features from the other folds)",
        ["predictions", "n_U", "n_N", "n_overlap", "a", "b", "acc_U", "acc_N", "pvalue", "log10_pvalue", "p_display",
         "degenerate"],
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
        "title": "Label balance of the selected features before (x) and after (y) reweighting; "
                 "points below the diagonal improved, labelled points got worse",
        "x_label": "label balance, uniform weights", "y_label": "label balance, reweighted", "diagonal": True,
        "points": points,
    }
