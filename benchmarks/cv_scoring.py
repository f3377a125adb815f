"""Cross-validation scoring on CODAH: the default scoring settings against a plain full fine-tune.

    .venv/bin/python benchmarks/cv_scoring.py [--quick] [--folds 5] [--plain-folds 1]
        [--split official|stratified] [--limit N] [--epochs N] [--seed 42] [--threads 0]
        [--answer-only] [--data ../shared/data/codah] [--out PATH] [--json]

On the machine it runs on, in one run and fold next to fold (so load from other processes hits
both alike), it trains with the product's own code path (:class:`mlcore.models.cv_runner.FoldRunner`,
the packaged all-MiniLM-L6-v2 with a new multiple-choice head) and compares:

(a) the default scoring settings, ``FineTuneConfig.fast_cv()``, on every fold (the frozen-prefix
    cache is built once, in fold 0, and counted there); its ``bf16 = auto`` is resolved here and
    what it became is printed; ``threads = 0`` is measured once (``--threads``) and used by both
    settings, so the per-step comparison is at the same thread count;
(b) a plain full fine-tune, ``FineTuneConfig()`` with the same epochs, learning rate, batch size
    and seed, on the first ``--plain-folds`` folds (about 15 minutes per fold on 2 cores);
(c) with ``--answer-only``, the CODAH answer-only baseline with the default settings, all folds.

Folds: ``official`` (default) are CODAH's released ``cv_split``: fold k tests on
``fold_k/test.tsv`` and trains on every other question (its train + dev, the paper's "80%"
setting; the five test files partition ``full_data.tsv``). ``stratified`` are the product's own
category-stratified folds (``mlcore.models.crossval.stratified_folds``). ``--quick`` (tens of seconds,
same code path): the first 60 questions, 1 epoch, all folds, plain on fold 0.

It prints the CPU, torch's CPU capability, the precision and threads used, per fold time, time
per step and accuracy of each setting, and writes ``benchmarks/out/cv_scoring.json`` (``--out``)
with these stable keys; ``--json`` prints the same document on stdout (the table goes to stderr):

    cpu_model, cpu_capability, cpu_flags, torch_version   the machine, as torch sees it
    precision, precision_reason        what ``bf16 = auto`` became for the default settings
    threads_default, threads_plain     torch threads each trained with (last fold)
    speedup                            seconds_per_step_plain / seconds_per_step_default
    seconds_per_step_default, seconds_per_step_plain   training steps only, compared folds
    accuracy_default, accuracy_plain   pooled test accuracy on the compared folds
    accuracy_gap_points                100 x (accuracy_default - accuracy_plain)
    seconds_default_compared, seconds_plain_compared   wall time of the compared folds
    total_seconds_5_folds              default settings, all 5 folds incl. the cache (5 folds only)
    accuracy_default_all_folds, questions, folds, plain_folds, split, epochs, seed, quick
    per_fold                           [{setting, fold, seconds, steps, seconds_per_step, accuracy, train, test}]
    answer_only                        with --answer-only: accuracy, binomial_pvalue_vs_chance, seconds
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmark_output import emit_result  # noqa: E402

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

from scipy.stats import binomtest  # noqa: E402

from mlcore.configs import CATEGORY_CODES, FineTuneConfig, MCExample, TrainProgress  # noqa: E402
from mlcore.data.codah import read_codah_file  # noqa: E402
from mlcore.models.crossval import stratified_folds  # noqa: E402
from mlcore.models.cv_runner import FoldRunner  # noqa: E402
from mlcore.models.hardware import detect_cpu, training_threads  # noqa: E402
from mlcore.models.loading import PACKAGED_MINILM  # noqa: E402

DEFAULT_OUT = ROOT / "benchmarks" / "out" / "cv_scoring.json"
QUICK = {"limit": 60, "epochs": 1, "plain_folds": 1}
_LETTER = {name: letter for letter, name in CATEGORY_CODES.items()}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class Series:
    """One setting's folds: time, training steps and test accuracy."""

    name: str
    folds: list[dict] = field(default_factory=list)

    def add(self, fold: int, seconds: float, steps: list[TrainProgress], right: int, train: int, test: int) -> dict:
        last = steps[-1]
        row = {"setting": self.name, "fold": fold, "seconds": round(seconds, 2), "steps": last.step,
               "seconds_per_step": round(last.elapsed_seconds / last.step, 4), "accuracy": round(right / test, 4),
               "correct": right, "train": train, "test": test}
        self.folds.append(row)
        return row

    def over(self, folds: range) -> dict:
        rows = [row for row in self.folds if row["fold"] in folds]
        steps = sum(row["steps"] for row in rows)
        return {"seconds": sum(row["seconds"] for row in rows), "steps": steps,
                "seconds_per_step": sum(row["seconds_per_step"] * row["steps"] for row in rows) / max(steps, 1),
                "accuracy": sum(row["correct"] for row in rows) / max(sum(row["test"] for row in rows), 1)}


def load_folds(data: Path, split: str, folds: int, limit: int | None, seed: int) -> tuple[list[MCExample], list[list[int]]]:
    """Every question (or the first ``limit``) and the test indices of each fold."""
    parsed = read_codah_file(data / "full_data.tsv", allow_duplicate_choices=True)
    if parsed.errors:
        raise SystemExit(f"{data / 'full_data.tsv'}: {parsed.errors[0]}")
    examples = list(parsed.examples[:limit] if limit else parsed.examples)
    if split == "stratified":
        strata = ["".join(sorted(_LETTER[c] for c in e.categories)) or "o" for e in examples]
        assignment = stratified_folds(list(range(len(examples))), strata, k=folds, rng=seed)
        return examples, [list(assignment.test_ids(f)) for f in range(folds)]
    if folds != 5:
        raise SystemExit("the official CODAH split has 5 folds (use --split stratified for another count)")
    position = {(e.prompt, e.choices, e.label): i for i, e in enumerate(examples)}
    tests = []
    for fold in range(folds):
        rows = read_codah_file(data / "cv_split" / f"fold_{fold}" / "test.tsv", allow_duplicate_choices=True)
        keys = [(e.prompt, e.choices, e.label) for e in rows.examples]
        tests.append(sorted(position[key] for key in keys if key in position))
    return examples, tests


def run_fold(runner: FoldRunner, series: Series, examples: list[MCExample], tests: list[list[int]], fold: int,
             seed: int) -> None:
    test = tests[fold]
    train = sorted(set(range(len(examples))) - set(test))
    steps: list[TrainProgress] = []
    started = time.perf_counter()
    predictions = runner.run_fold(train, test, seed=seed, progress=steps.append)
    seconds = time.perf_counter() - started
    right = sum(p.predicted == examples[i].label for p, i in zip(predictions, test, strict=True))
    row = series.add(fold, seconds, steps, right, len(train), len(test))
    log(f"  fold {fold}  {series.name:<12} {seconds:7.1f} s  {row['steps']:4d} steps x "
        f"{row['seconds_per_step']:.3f} s  accuracy {row['accuracy']:.3f}  "
        f"({runner.hardware_.precision}, {runner.threads_} threads)")


def summarise(args, examples, default: Series, plain: Series, runners: dict[str, FoldRunner]) -> dict:
    cpu, resolution = detect_cpu(), runners["default"].hardware_
    compared = range(args.plain_folds)
    ours, theirs = default.over(compared), plain.over(compared)
    everything = default.over(range(args.folds))
    result = {
        "cpu_model": cpu.model_name, "cpu_capability": cpu.capability, "cpu_flags": list(cpu.flags),
        "torch_version": cpu.torch_version, "precision": resolution.precision,
        "precision_reason": resolution.reason, "threads_default": runners["default"].threads_,
        "threads_plain": runners["plain"].threads_ if args.plain_folds else None,
        "questions": len(examples), "folds": args.folds, "plain_folds": args.plain_folds, "split": args.split,
        "epochs": args.epochs, "seed": args.seed, "quick": args.quick,
        "accuracy_default_all_folds": round(everything["accuracy"], 4),
        "total_seconds_5_folds": round(everything["seconds"], 1) if args.folds == 5 else None,
        "per_fold": default.folds + plain.folds,
    }
    if args.plain_folds:
        result.update(
            speedup=round(theirs["seconds_per_step"] / ours["seconds_per_step"], 3),
            seconds_per_step_default=round(ours["seconds_per_step"], 4),
            seconds_per_step_plain=round(theirs["seconds_per_step"], 4),
            accuracy_default=round(ours["accuracy"], 4), accuracy_plain=round(theirs["accuracy"], 4),
            accuracy_gap_points=round(100 * (ours["accuracy"] - theirs["accuracy"]), 2),
            seconds_default_compared=round(ours["seconds"], 1), seconds_plain_compared=round(theirs["seconds"], 1),
        )
    return result


def print_table(result: dict) -> None:
    log(f"\nCPU: {result['cpu_model']}; torch {result['torch_version']} runs {result['cpu_capability']} kernels "
        f"(flags: {', '.join(result['cpu_flags']) or 'none'})")
    log(f"Default settings trained in {result['precision']} ({result['precision_reason']}), "
        f"{result['threads_default']} thread(s); plain in float32, {result['threads_plain']} thread(s)")
    if result["plain_folds"]:
        log(f"\n{'on fold(s) 0-' + str(result['plain_folds'] - 1):<22} {'default':>10} {'plain':>10}")
        log(f"{'seconds per step':<22} {result['seconds_per_step_default']:>10.3f} {result['seconds_per_step_plain']:>10.3f}"
            f"   speed-up {result['speedup']:.2f}x")
        log(f"{'total seconds':<22} {result['seconds_default_compared']:>10.1f} {result['seconds_plain_compared']:>10.1f}")
        log(f"{'test accuracy':<22} {result['accuracy_default']:>10.3f} {result['accuracy_plain']:>10.3f}"
            f"   gap {result['accuracy_gap_points']:+.1f} points")
    total = result["total_seconds_5_folds"]
    log(f"\nDefault settings, all {result['folds']} folds of {result['questions']} questions: "
        f"{'%.1f min' % (total / 60) if total is not None else 'not a 5-fold run'}, "
        f"CV accuracy {result['accuracy_default_all_folds']:.3f}")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "codah")
    parser.add_argument("--split", choices=("official", "stratified"), default="official")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--plain-folds", type=int, default=1, help="run the plain fine-tune on the first N folds")
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions")
    parser.add_argument("--epochs", type=int, default=None, help="override the epochs of both settings")
    parser.add_argument("--threads", type=int, default=0, help="torch threads for both; 0 = measured once (auto)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--answer-only", action="store_true", help="also the answer-only baseline, all folds")
    parser.add_argument("--quick", action="store_true", help=f"smoke run, tens of seconds: {QUICK}")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--json", action="store_true", help="print the result as one JSON document on stdout")
    args = parser.parse_args(argv)
    if args.quick:
        args.limit, args.epochs = args.limit or QUICK["limit"], args.epochs or QUICK["epochs"]
        args.plain_folds = min(args.plain_folds, QUICK["plain_folds"])
    args.epochs = args.epochs or FineTuneConfig().epochs
    if not 0 <= args.plain_folds <= args.folds or args.folds < 2 or args.epochs < 1 or args.threads < 0:
        parser.error("need 2+ folds, 0 <= --plain-folds <= --folds, --epochs >= 1 and --threads >= 0")
    if not (args.data / "full_data.tsv").is_file():
        parser.error(f"CODAH data not found at {args.data} (pass --data)")
    return args


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    examples, tests = load_folds(args.data, args.split, args.folds, args.limit, args.seed)
    # One thread count for both settings, measured once for 0 like the product's auto: choosing it
    # per fold could give the two settings different counts and confound the per-step comparison.
    threads = training_threads(args.threads)
    shared = {"epochs": args.epochs, "seed": args.seed, "threads": threads}
    configs = {"default": FineTuneConfig.fast_cv(**shared), "plain": FineTuneConfig(**shared)}
    log(f"CODAH: {len(examples)} questions, {args.split} split, {args.folds} folds, {args.epochs} epoch(s); "
        f"plain fine-tune on {args.plain_folds} fold(s)")
    runners = {name: FoldRunner(PACKAGED_MINILM, examples, config) for name, config in configs.items()}
    default, plain = Series("default"), Series("plain full")
    for fold in range(args.folds):
        run_fold(runners["default"], default, examples, tests, fold, args.seed)
        if fold < args.plain_folds:
            run_fold(runners["plain"], plain, examples, tests, fold, args.seed)
    result = summarise(args, examples, default, plain, runners)
    if args.answer_only:
        answer = Series("answer-only")
        runner = FoldRunner(PACKAGED_MINILM, examples, FineTuneConfig.fast_cv(**shared, answer_only=True))
        for fold in range(args.folds):
            run_fold(runner, answer, examples, tests, fold, args.seed)
        pooled = answer.over(range(args.folds))
        right = sum(row["correct"] for row in answer.folds)
        result["answer_only"] = {"accuracy": round(pooled["accuracy"], 4), "seconds": round(pooled["seconds"], 1),
                                 "binomial_pvalue_vs_chance": binomtest(right, len(examples), 0.25,
                                                                        alternative="greater").pvalue}
    print_table(result)
    emit_result(result, args.out, as_json=args.json)
    return result


if __name__ == "__main__":
    main()
