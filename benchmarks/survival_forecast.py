"""Will a CODAH question survive cross-validation? The survival forecast against two simple rules.

    .venv/bin/python benchmarks/survival_forecast.py [--quick] [--limit N] [--epochs N] [--seed 42]
        [--threads 0] [--answer-only] [--outcomes PATH] [--save-outcomes PATH] [--bins 10]
        [--data ../shared/data/codah] [--out PATH] [--json]

Outcomes (``survival_outcomes.py``, the product's own code): version 0, the zero-shot scorer a new
installation serves, answers every question as the author would see it; the default
cross-validation (``FineTuneConfig.fast_cv()``, CODAH's official folds, each question predicted by
the model trained on the other four folds, as ``benchmarks/cv_scoring.py`` runs it) decides
whether it *survives* (that model misses it). ``--answer-only`` adds the answer-only model's pick,
cross-fitted the same way. ``--save-outcomes`` keeps them; ``--outcomes`` reuses them instead of
retraining (the forecast is measured on exactly what was saved).

Features per question (:func:`mlcore.stats.survival.survival_features`): the live model's
probabilities and margin and whether it is fooled, the answer-only pick (with ``--answer-only``),
the coach's warnings (length; right-answer words of the other folds; a near-duplicate in the other
folds; answer-only), lengths and word overlaps, and the largest word-set Jaccard similarity to a
question of the other folds (the questions that exist when that fold is scored).

Three forecasts of survival, each cross-fitted by the same folds (never fitted on the question's
own fold): (a) the base rate of the other folds; (b) the live rule "fooled the live model ⇒
survives", as the other folds' survival rate among fooled and among not-fooled questions (the hard
0/1 rule's Brier is ``brier_live_rule_hard``; its log loss would be infinite); (c) the forecast,
:func:`mlcore.stats.survival.fit_survival` with ``folds`` = the CV folds. ``--quick``: the first 60
questions, 1 epoch (tens of seconds, same code path).

Writes ``benchmarks/out/survival_forecast.json`` (``--out``); ``--json`` prints the same document on
stdout, everything else goes to stderr. Stable keys: ``brier_base``, ``brier_live_rule``,
``brier_forecast``, ``logloss_base``, ``logloss_live_rule``, ``logloss_forecast``, ``auc_live_rule``,
``auc_forecast``, ``calibration_slope``, ``calibration_intercept``, ``brier_live_rule_hard``,
``usable``, ``pvalue``, ``meets_aim`` (forecast beats both on Brier and log loss with slope in
0.8-1.2), ``survival_rate``, ``live_accuracy``, ``cv_accuracy``, ``answer_only_accuracy``,
``questions``, ``folds``, ``quick``, ``outcome_source``, ``cpu_model``, ``seconds``,
``coefficients`` {feature: per-SD coefficient}, ``reliability`` {base, live_rule, forecast: [{lower,
upper, n, mean_forecast, observed_rate}]}.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmark_output import emit_result  # noqa: E402

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

import numpy as np  # noqa: E402
import survival_outcomes  # noqa: E402
from cv_scoring import load_folds  # noqa: E402
from scipy import sparse  # noqa: E402

from mlcore.bias.coach import answer_word_table, flagged_words, length_check  # noqa: E402
from mlcore.configs import MCExample  # noqa: E402
from mlcore.data.near_duplicates import DEFAULT_THRESHOLD, question_shingles  # noqa: E402
from mlcore.stats.forecast_metrics import auc, brier_score, log_loss, reliability_table  # noqa: E402
from mlcore.stats.survival import SurvivalFeatures, fit_survival, survival_features  # noqa: E402

DEFAULT_OUT = ROOT / "benchmarks" / "out" / "survival_forecast.json"
QUICK = {"limit": 60, "epochs": 1}
log = survival_outcomes.log


def similarity_to_other_folds(examples: list[MCExample], fold: np.ndarray) -> np.ndarray:
    """Largest Jaccard similarity of each question's word set to a question of another fold."""
    shingles = [question_shingles(e.prompt, e.choices) for e in examples]
    vocabulary = {word: i for i, word in enumerate(sorted(set().union(*shingles)))}
    rows = [i for i, s in enumerate(shingles) for _ in s]
    cols = [vocabulary[word] for s in shingles for word in s]
    m = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(examples), len(vocabulary)))
    shared = (m @ m.T).toarray()  # (n, n) words in common
    sizes = np.asarray(m.sum(axis=1)).ravel()
    union = sizes[:, None] + sizes[None, :] - shared
    jaccard = np.divide(shared, union, out=np.zeros_like(shared), where=union > 0)
    jaccard[fold[:, None] == fold[None, :]] = -1.0  # the own fold (and the question itself) does not exist yet
    return np.maximum(jaccard.max(axis=1), 0.0)


def coach_warnings(examples: list[MCExample], fold: np.ndarray, similarity: np.ndarray,
                   answer_only: list[int] | None) -> list[int]:
    """The coach's warnings on each question, with the other folds as the round's questions so far."""
    counts = []
    tables = {k: answer_word_table([e.choices for e, f in zip(examples, fold) if f != k],
                                   [e.label for e, f in zip(examples, fold) if f != k]) for k in np.unique(fold)}
    for i, e in enumerate(examples):
        assert e.label is not None
        count = int(length_check(e.choices, e.label).warn) + int(bool(flagged_words(e.choices[e.label], tables[fold[i]])))
        count += int(similarity[i] >= DEFAULT_THRESHOLD)
        if answer_only is not None:
            count += int(answer_only[i] == e.label)
        counts.append(count)
    return counts


def build_features(examples: list[MCExample], document: dict) -> tuple[list[SurvivalFeatures], np.ndarray, np.ndarray]:
    rows = document["rows"]
    fold = np.array([row["fold"] for row in rows])
    answer_only = [row["answer_only_pred"] for row in rows] if "answer_only_pred" in rows[0] else None
    similarity = similarity_to_other_folds(examples, fold)
    warnings = coach_warnings(examples, fold, similarity, answer_only)
    features = [
        survival_features(e.prompt, e.choices, e.label, row["live_probs"],
                          answer_only_pick=answer_only[i] if answer_only else None,
                          coach_warnings=warnings[i], max_similarity=float(similarity[i]))
        for i, (e, row) in enumerate(zip(examples, rows, strict=True))
    ]
    survived = np.array([row["cv_pred"] != row["label"] for row in rows])
    return features, survived, fold


def live_rule(fooled: np.ndarray, survived: np.ndarray, fold: np.ndarray) -> np.ndarray:
    """Survival rate of the other folds among questions that fooled (did not fool) the live model.

    Add-one smoothing keeps a fold with no fooled question from forecasting 0/0.
    """
    forecast = np.empty(survived.size)
    for k in np.unique(fold):
        other = fold != k
        for value in (True, False):
            group = other & (fooled == value)
            forecast[(fold == k) & (fooled == value)] = (survived[group].sum() + 1) / (group.sum() + 2)
    return forecast


def scores(y: np.ndarray, p: np.ndarray, bins: int) -> dict:
    return {"brier": brier_score(y, p), "logloss": log_loss(y, p), "auc": auc(y, p),
            "reliability": [vars(b) for b in reliability_table(y, p, bins=bins)]}


def clean(value: object) -> object:
    """JSON without NaN: ``null`` for numbers that do not exist (empty bins, one-class AUC)."""
    if isinstance(value, float):
        return None if math.isnan(value) else float(f"{value:.6g}")  # significant digits: p-values stay > 0
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


def measure(examples: list[MCExample], document: dict, args: argparse.Namespace) -> dict:
    features, survived, fold = build_features(examples, document)
    y = survived.astype(int)
    fooled = np.array([f.fooled for f in features])
    forecast = fit_survival(features, survived, folds=fold, seed=args.seed)
    rule = live_rule(fooled, survived, fold)
    result: dict = {"survival_rate": float(y.mean()), "live_accuracy": float(1 - fooled.mean()),
                    "cv_accuracy": float(1 - y.mean()), "brier_live_rule_hard": brier_score(y, fooled.astype(float))}
    if "answer_only_pred" in document["rows"][0]:
        result["answer_only_accuracy"] = float(np.mean([r["answer_only_pred"] == r["label"] for r in document["rows"]]))
    else:
        result["answer_only_accuracy"] = None
    rule_scores = scores(y, rule, args.bins)
    reliability = {"live_rule": rule_scores["reliability"]}
    result.update(brier_live_rule=rule_scores["brier"], logloss_live_rule=rule_scores["logloss"],
                  auc_live_rule=rule_scores["auc"], usable=forecast.usable, reason=forecast.reason)
    if forecast.quality is None:  # too few questions or outcomes (a tiny --limit): no forecast to score
        base = np.array([y[fold != k].mean() for k in fold])
        base_scores = scores(y, base, args.bins)
        reliability.update(base=base_scores["reliability"], forecast=None)
        result.update(brier_base=base_scores["brier"], logloss_base=base_scores["logloss"], brier_forecast=None,
                      logloss_forecast=None, auc_forecast=None, calibration_slope=None, calibration_intercept=None,
                      pvalue=None, meets_aim=False, coefficients=None)
    else:
        q = forecast.quality
        reliability.update(base=scores(y, np.array(forecast.held_out_base), args.bins)["reliability"],
                           forecast=scores(y, np.array(forecast.held_out), args.bins)["reliability"])
        result.update(brier_base=q.brier_base, logloss_base=q.log_loss_base, brier_forecast=q.brier,
                      logloss_forecast=q.log_loss, auc_forecast=q.auc, calibration_slope=q.calibration_slope,
                      calibration_intercept=q.calibration_intercept, pvalue=q.pvalue,
                      coefficients=dict(zip(forecast.feature_names, forecast.coefficients)))
        result["meets_aim"] = bool(q.brier < min(q.brier_base, result["brier_live_rule"])
                                   and q.log_loss < min(q.log_loss_base, result["logloss_live_rule"])
                                   and 0.8 <= q.calibration_slope <= 1.2)
    result["reliability"] = reliability
    return result


def print_table(result: dict) -> None:
    log(f"\n{result['questions']} questions, survival rate {result['survival_rate']:.3f} "
        f"(CV accuracy {result['cv_accuracy']:.3f}), live model accuracy {result['live_accuracy']:.3f}")
    log(f"outcomes: {result['outcome_source']}")
    log(f"{'':<28}{'Brier':>9}{'log loss':>10}{'AUC':>8}")
    for name, key in (("(a) base rate", "base"), ("(b) fooled => survives", "live_rule"), ("(c) forecast", "forecast")):
        brier, loss = result[f"brier_{key}"], result[f"logloss_{key}"]
        auc_value = result.get(f"auc_{key}")
        cells = [f"{v:>9.4f}" if v is not None else f"{'-':>9}" for v in (brier, loss)]
        log(f"{name:<28}{cells[0]}{cells[1]:>10}{(f'{auc_value:.3f}' if auc_value is not None else '-'):>8}")
    if result["calibration_slope"] is not None:
        log(f"calibration slope {result['calibration_slope']:.3f}, intercept {result['calibration_intercept']:.3f}; "
            f"usable: {result['usable']} ({result['reason']}); aim met: {result['meets_aim']}")
        log("reliability of the forecast (bin: n, mean forecast, observed):")
        for b in result["reliability"]["forecast"]:
            if b["n"]:
                log(f"  [{b['lower']:.1f}, {b['upper']:.1f}): {b['n']:5d}  {b['mean_forecast']:.3f}  "
                    f"{b['observed_rate']:.3f}")
    else:
        log(f"no forecast: {result['reason']}")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "codah")
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions")
    parser.add_argument("--epochs", type=int, default=None, help="override the cross-validation's epochs")
    parser.add_argument("--threads", type=int, default=0, help="torch threads; 0 = measured once (auto)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--answer-only", action="store_true", help="also train the answer-only model, all folds")
    parser.add_argument("--outcomes", type=Path, help="reuse outcomes saved by --save-outcomes instead of training")
    parser.add_argument("--save-outcomes", type=Path, help="keep the per-question outcomes here")
    parser.add_argument("--bins", type=int, default=10, help="bins of the reliability tables")
    parser.add_argument("--quick", action="store_true", help=f"smoke run, tens of seconds: {QUICK}")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--json", action="store_true", help="print the result as one JSON document on stdout")
    args = parser.parse_args(argv)
    if args.quick:
        args.limit, args.epochs = args.limit or QUICK["limit"], args.epochs or QUICK["epochs"]
    if not (args.data / "full_data.tsv").is_file():
        parser.error(f"CODAH data not found at {args.data} (pass --data)")
    if args.outcomes and not args.outcomes.is_file():
        parser.error(f"no outcomes at {args.outcomes}")
    return args


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    started = time.perf_counter()
    examples, tests = load_folds(args.data, "official", 5, args.limit, args.seed)
    if args.outcomes:
        document = survival_outcomes.load(args.outcomes, len(examples))
        log(f"outcomes read from {args.outcomes}")
    else:
        log(f"CODAH: {len(examples)} questions, official folds; training the cross-validation models")
        save = (lambda d: survival_outcomes.save(d, args.save_outcomes)) if args.save_outcomes else None
        document = survival_outcomes.collect(examples, tests, epochs=args.epochs, seed=args.seed, threads=args.threads,
                                             answer_only=args.answer_only, checkpoint=save)
    result = {"questions": len(examples), "folds": len(tests), "quick": args.quick, "cpu_model": document["cpu_model"],
              "outcome_source": f"live model {document['live_model']} ({document['live_revision']}); "
                                f"{document['cv_settings']}; answer-only: "
                                f"{'yes' if 'answer_only_pred' in document['rows'][0] else 'no'}",
              **measure(examples, document, args)}
    result["seconds"] = {**document["seconds"], "total": round(time.perf_counter() - started, 1)}
    result = clean(result)
    print_table(result)
    emit_result(result, args.out, as_json=args.json)
    return result


if __name__ == "__main__":
    main()
