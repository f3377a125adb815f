"""The expensive half of benchmarks/survival_forecast.py: what the models did on each CODAH question.

For every question of CODAH (or the first ``limit``) and its official fold, three sources, all
through the product's own code:

* ``live_probs`` - version 0, the live model a new installation serves (the zero-shot MiniLM
  scorer, ``modelhub.services.model_version_default``), as the author sees it while typing;
* ``cv_pred`` - the default cross-validation: :class:`mlcore.models.cv_runner.FoldRunner` with
  ``FineTuneConfig.fast_cv()`` trained on the other folds (as ``benchmarks/cv_scoring.py`` runs it);
  the question *survives* when this pick is wrong;
* ``answer_only_pred`` (optional) - the same settings with prompts blanked (the coach's
  answer-only model), cross-fitted the same way so it never saw the question.

:func:`collect` returns a JSON-ready document; ``survival_forecast.py --save-outcomes`` keeps it and
``--outcomes`` reads it back, so the forecast can be re-measured without retraining.
"""
from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from mlcore.configs import FineTuneConfig, MCExample, ScorerKind, ScorerSpec
from mlcore.models.cv_runner import FoldRunner
from mlcore.models.hardware import detect_cpu, training_threads
from mlcore.models.inference import build_scorer
from mlcore.models.loading import PACKAGED_MINILM

#: modelhub.services.DEFAULT_MODEL_NAME (not imported: the benchmark runs without Django).
LIVE_MODEL_NAME = "v0-minilm-zero-shot"
FORMAT = 1


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def cross_fitted_picks(examples: list[MCExample], tests: list[list[int]], config: FineTuneConfig, seed: int,
                       name: str) -> tuple[list[int], float]:
    """Each question's pick by the model trained on the other folds, and the seconds it took."""
    runner, picks = FoldRunner(PACKAGED_MINILM, examples, config), [-1] * len(examples)
    started = time.perf_counter()
    for fold, test in enumerate(tests):
        train = sorted(set(range(len(examples))) - set(test))
        fold_started = time.perf_counter()
        for index, prediction in zip(test, runner.run_fold(train, test, seed=seed), strict=True):
            picks[index] = prediction.predicted
        right = sum(picks[i] == examples[i].label for i in test)
        log(f"  {name} fold {fold}: {time.perf_counter() - fold_started:6.1f} s, accuracy {right / len(test):.3f}")
    return picks, time.perf_counter() - started


def collect(examples: list[MCExample], tests: list[list[int]], *, epochs: int | None, seed: int, threads: int,
            answer_only: bool, checkpoint: Callable[[dict], None] | None = None) -> dict:
    """Live-model probabilities and cross-fitted CV (and answer-only) picks for every question."""
    fold_of = {index: fold for fold, test in enumerate(tests) for index in test}
    started = time.perf_counter()
    live = build_scorer(ScorerSpec(kind=ScorerKind.ZERO_SHOT, path=PACKAGED_MINILM, name=LIVE_MODEL_NAME))
    predictions = live.predict(examples)
    live_seconds = time.perf_counter() - started
    log(f"live model ({LIVE_MODEL_NAME}): {live_seconds:.1f} s, accuracy "
        f"{sum(p.predicted == e.label for p, e in zip(predictions, examples)) / len(examples):.3f}")
    shared: dict = {"seed": seed, "threads": training_threads(threads)}
    if epochs:
        shared["epochs"] = epochs
    config = FineTuneConfig.fast_cv(**shared)
    document = {
        "format": FORMAT, "cpu_model": detect_cpu().model_name, "questions": len(examples),
        "live_model": LIVE_MODEL_NAME, "live_revision": predictions[0].model_revision,
        "cv_settings": f"FineTuneConfig.fast_cv(epochs={config.epochs}, seed={seed}), official CODAH folds",
        "seconds": {"live": round(live_seconds, 1)},
        "rows": [{"index": i, "fold": fold_of[i], "label": e.label, "live_probs": list(p.probs)}
                 for i, (e, p) in enumerate(zip(examples, predictions))],
    }
    picks, seconds = cross_fitted_picks(examples, tests, config, seed, "cross-validation")
    document["seconds"]["cv"] = round(seconds, 1)
    for row, pick in zip(document["rows"], picks):
        row["cv_pred"] = pick
    if checkpoint:
        checkpoint(document)
    if answer_only:
        blanked = FineTuneConfig.fast_cv(**shared, answer_only=True)
        picks, seconds = cross_fitted_picks(examples, tests, blanked, seed, "answer-only")
        document["seconds"]["answer_only"] = round(seconds, 1)
        for row, pick in zip(document["rows"], picks):
            row["answer_only_pred"] = pick
        if checkpoint:
            checkpoint(document)
    return document


def save(document: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")
    log(f"outcomes written to {path}")


def load(path: Path, questions: int) -> dict:
    """A document written by :func:`save`; refuses one made for another question count or format."""
    document = json.loads(path.read_text(encoding="utf-8"))
    if document.get("format") != FORMAT or document.get("questions") != questions:
        raise SystemExit(f"{path}: not outcomes of {questions} questions in format {FORMAT}")
    return document
