"""Cross-validation scoring benchmark on the real CODAH data (issue 4).

    .venv/bin/python benchmarks/cv_scoring.py [--data ../shared/data/codah] [--folds 5]
        [--plain-folds 5] [--no-answer-only] [--limit N] [--seed 42]

Uses the product's own code path (``collector.scoring`` calls the same pieces): the §5.2
category-stratified folds of :func:`mlcore.crossval.stratified_folds` over all questions of
``full_data.tsv``, and :class:`mlcore.cv_runner.FoldRunner` from the packaged all-MiniLM-L6-v2
with a new multiple-choice head. In one run it measures, fold after fold and side by side:

(a) the default scoring settings (``FineTuneConfig.fast_cv()``: embeddings and layers 1-2 frozen
    and their outputs cached once for all questions, float16 cache, length-grouped batches,
    bfloat16 autocast; everything else the defaults);
(b) a plain full fine-tune of the same model with the same hyperparameters (``FineTuneConfig()``)
    on the same folds with the same seed; ``--plain-folds`` limits it to the first N folds, since
    it takes about 13 minutes per fold on 2 cores;
(c) the CODAH answer-only baseline with the default settings (prompt blanked in training and
    evaluation, SPEC §5.5), all folds.

Fold (a) and fold (b) of the same index run next to each other, so load from other processes
hits both alike. Prints time per fold (the cache build is counted once, in fold 0 of (a)),
accuracy of each, the speed ratio and the totals, and writes benchmarks/out/cv_scoring.json.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402
from scipy.stats import binomtest  # noqa: E402

from mlcore.codah import read_codah_file  # noqa: E402
from mlcore.configs import CATEGORY_CODES, FineTuneConfig, MCExample  # noqa: E402
from mlcore.crossval import FoldAssignment, stratified_folds  # noqa: E402
from mlcore.cv_runner import FoldRunner  # noqa: E402
from mlcore.loading import PACKAGED_MINILM  # noqa: E402

#: CODAH Table 3 (accuracy %, 5-fold CV, mean ± std over 3 trials; "60%"/"80%" = share of CODAH
#: used for training; answer only: 1 trial).
PAPER_TABLE_3 = {
    "BERT-Large, CODAH 60%": "42.8 ± 13.6",
    "BERT-Large, CODAH 80%": "49.6 ± 5.21",
    "GPT-1, CODAH 60%": "60.8 ± 0.50",
    "GPT-1, CODAH 80%": "62.4 ± 0.66",
    "BERT-Large, answer only": "28.4",
    "GPT-1, answer only": "53.9",
}
_LETTER = {name: letter for letter, name in CATEGORY_CODES.items()}


@dataclass
class Series:
    """Timings and out-of-fold accuracy of one setting, fold by fold."""

    name: str
    seconds: list[float] = field(default_factory=list)
    correct: list[int] = field(default_factory=list)
    total: list[int] = field(default_factory=list)
    predicted: dict[int, int] = field(default_factory=dict)

    def add(self, seconds: float, test_index: list[int], predictions, examples: list[MCExample]) -> float:
        right = 0
        for index, prediction in zip(test_index, predictions):
            self.predicted[index] = prediction.predicted
            right += prediction.predicted == examples[index].label
        self.seconds.append(seconds)
        self.correct.append(right)
        self.total.append(len(test_index))
        return right / len(test_index)

    def accuracy(self) -> float:
        return sum(self.correct) / max(sum(self.total), 1)

    def fold_accuracies(self) -> list[float]:
        return [c / t for c, t in zip(self.correct, self.total)]

    def as_dict(self) -> dict:
        folds = self.fold_accuracies()
        return {
            "seconds_per_fold": [round(s, 1) for s in self.seconds],
            "accuracy_per_fold": [round(a, 4) for a in folds],
            "pooled_accuracy": round(self.accuracy(), 4),
            "fold_mean": round(float(np.mean(folds)), 4) if folds else None,
            "fold_std": round(float(np.std(folds, ddof=1)), 4) if len(folds) > 1 else None,
            "total_seconds": round(sum(self.seconds), 1),
        }


def load_codah(data: Path, limit: int | None) -> tuple[list[MCExample], list[str]]:
    parsed = read_codah_file(data / "full_data.tsv", allow_duplicate_choices=True)
    if parsed.errors:
        raise SystemExit(f"{data / 'full_data.tsv'}: {parsed.errors[0]}")
    examples = list(parsed.examples[:limit] if limit else parsed.examples)
    strata = ["".join(sorted(_LETTER[c] for c in e.categories)) or "o" for e in examples]
    return examples, strata


def run_fold(runner: FoldRunner, series: Series, assignment: FoldAssignment, fold: int, seed: int,
             examples: list[MCExample]) -> None:
    train, test = list(assignment.train_ids(fold)), list(assignment.test_ids(fold))
    started = time.perf_counter()
    predictions = runner.run_fold(train, test, seed=seed)
    seconds = time.perf_counter() - started
    accuracy = series.add(seconds, test, predictions, examples)
    _save_partial(series, fold)
    print(f"  fold {fold}  {series.name:<12} {seconds:7.1f} s  accuracy {accuracy:.3f}  "
          f"(train {len(train)}, test {len(test)})", flush=True)


def _save_partial(series: Series, fold: int) -> None:
    """Append each finished fold to benchmarks/out/cv_scoring_folds.jsonl: a long run that is
    stopped early still leaves its measured folds behind."""
    out = ROOT / "benchmarks" / "out"
    out.mkdir(exist_ok=True)
    with (out / "cv_scoring_folds.jsonl").open("a") as stream:
        stream.write(json.dumps({"setting": series.name, "fold": fold, "seconds": round(series.seconds[-1], 1),
                                 "accuracy": round(series.fold_accuracies()[-1], 4)}) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "codah")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--plain-folds", type=int, default=None, help="run the plain baseline on the first N folds")
    parser.add_argument("--no-answer-only", action="store_true")
    parser.add_argument("--limit", type=int, default=None, help="use the first N questions (smoke runs)")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    if not (args.data / "full_data.tsv").exists():
        raise SystemExit(f"CODAH data not found at {args.data} (pass --data)")
    plain_folds = args.folds if args.plain_folds is None else min(args.plain_folds, args.folds)

    examples, strata = load_codah(args.data, args.limit)
    assignment = stratified_folds(list(range(len(examples))), strata, k=args.folds, rng=args.seed)
    print(f"CODAH: {len(examples)} questions, {args.folds} stratified folds (seed {args.seed}); "
          f"torch threads {FineTuneConfig().threads}; plain baseline on {plain_folds} fold(s)", flush=True)

    fast_config = FineTuneConfig.fast_cv(seed=args.seed)
    fast, plain = Series("default"), Series("plain full")
    fast_runner = FoldRunner(PACKAGED_MINILM, examples, fast_config)
    plain_runner = FoldRunner(PACKAGED_MINILM, examples, FineTuneConfig(seed=args.seed))
    wall = time.perf_counter()
    for fold in range(args.folds):
        run_fold(fast_runner, fast, assignment, fold, args.seed, examples)
        if fold < plain_folds:
            run_fold(plain_runner, plain, assignment, fold, args.seed, examples)
    answer_only = Series("answer-only")
    if not args.no_answer_only:
        answer_runner = FoldRunner(PACKAGED_MINILM, examples, FineTuneConfig.fast_cv(seed=args.seed, answer_only=True))
        for fold in range(args.folds):
            run_fold(answer_runner, answer_only, assignment, fold, args.seed, examples)
    report(args, examples, fast, plain, answer_only, plain_folds, time.perf_counter() - wall)


def report(args, examples, fast: Series, plain: Series, answer_only: Series, plain_folds: int,
           wall_seconds: float) -> None:
    compared = range(plain_folds)
    fast_compared = sum(fast.seconds[f] for f in compared)
    plain_compared = sum(plain.seconds[f] for f in compared)
    fast_acc_compared = sum(fast.correct[f] for f in compared) / max(sum(fast.total[f] for f in compared), 1)
    print("\nfold  default s  default acc  plain s  plain acc  speed-up")
    for f in range(args.folds):
        row = f"{f:>4}  {fast.seconds[f]:9.1f}  {fast.fold_accuracies()[f]:11.3f}"
        if f < plain_folds:
            row += f"  {plain.seconds[f]:7.1f}  {plain.fold_accuracies()[f]:9.3f}  {plain.seconds[f] / fast.seconds[f]:7.2f}x"
        print(row)
    result = {
        "questions": len(examples), "folds": args.folds, "seed": args.seed, "plain_folds": plain_folds,
        "default": fast.as_dict(), "plain": plain.as_dict(), "paper_table_3": PAPER_TABLE_3,
        "wall_seconds": round(wall_seconds, 1),
    }
    if plain_folds:
        result["speed_ratio_on_compared_folds"] = round(plain_compared / fast_compared, 2)
        result["accuracy_gap_points_on_compared_folds"] = round(100 * (fast_acc_compared - plain.accuracy()), 2)
        print(f"\nOn the {plain_folds} compared fold(s): default {fast_compared:.0f} s, plain {plain_compared:.0f} s "
              f"-> {plain_compared / fast_compared:.2f}x faster; accuracy default {fast_acc_compared:.3f} "
              f"vs plain {plain.accuracy():.3f} ({result['accuracy_gap_points_on_compared_folds']:+.1f} points)")
    print(f"Default settings, all {args.folds} folds of {len(examples)} questions: {sum(fast.seconds) / 60:.1f} min, "
          f"CV accuracy {fast.accuracy():.3f} (fold mean {np.mean(fast.fold_accuracies()):.3f} "
          f"± {np.std(fast.fold_accuracies(), ddof=1) if args.folds > 1 else 0:.3f} std over folds)")
    if answer_only.total:
        n, right = sum(answer_only.total), sum(answer_only.correct)
        test = binomtest(right, n, 0.25, alternative="greater")
        result["answer_only"] = {**answer_only.as_dict(), "binomial_pvalue_vs_chance": test.pvalue}
        print(f"Answer-only (prompt blanked): accuracy {answer_only.accuracy():.3f} vs chance 0.250 "
              f"(binomial p = {test.pvalue:.2g}), gap to full CV {100 * (fast.accuracy() - answer_only.accuracy()):.1f} points, "
              f"{sum(answer_only.seconds) / 60:.1f} min")
    print("CODAH Table 3 for comparison:", "; ".join(f"{k} {v}" for k, v in PAPER_TABLE_3.items()))
    out = ROOT / "benchmarks" / "out"
    out.mkdir(exist_ok=True)
    (out / "cv_scoring.json").write_text(json.dumps(result, indent=2))
    print(f"written {out / 'cv_scoring.json'}")


if __name__ == "__main__":
    main()
