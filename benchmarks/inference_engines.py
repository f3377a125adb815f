"""Inference engines for live scoring, side by side on this machine: speed and CODAH accuracy.

    .venv/bin/python benchmarks/inference_engines.py --model DIR [--threads 2] [--reps 20] [--quick] [--json] [--out PATH]

For each engine of mlcore/models/engines.py (torch float32, torch dynamic int8, ONNX Runtime float32 and
int8) on one multiple-choice checkpoint (``--model``: a fine-tuned directory; default the packaged
MiniLM, whose untrained head makes the accuracy column meaningless):

* ``ms_1x4`` / ``ms_16x4``: one forward of 1 question x 4 choices / 16 x 4, padded (batched);
* ``ms_1x4_live``: the live path (mlcore.models.incremental), 4 pairs each run alone, no cache (a new prompt);
* ``ms_1_pair``: one pair alone (a keystroke in one choice, the rest cached);
* ``accuracy``: CODAH fold-0 test (../shared/data/codah, 556 questions) through the live path,
  and ``delta_points`` against torch float32.

Headline keys of benchmarks/out/inference_engines.json (stable): ``engines`` (the table above, one
object per engine), ``adopt`` (the fastest engine at ``ms_1x4_live`` whose accuracy is within
``tolerance_points`` = 0.5 of torch float32), ``cpu_capability`` (what torch reports),
``torch_threads``, ``model``, ``n_test``, ``quick``. ``--quick``: a tiny random BERT and toy
questions, same code path. To see an AVX2-only CPU from a newer one, run with
``ATEN_CPU_CAPABILITY=avx2 ONEDNN_MAX_CPU_ISA=AVX2`` (torch honours both; ONNX Runtime does not).
Timings are medians of ``--reps`` calls and as noisy as the machine.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmark_output import emit_result  # noqa: E402

OUT_FILE = ROOT / "benchmarks" / "out" / "inference_engines.json"
# ../shared beside the checkout (main, CI), or two levels up from a worktree
CODAH_TEST = next((base / "shared" / "data" / "codah" / "cv_split" / "fold_0" / "test.tsv"
                   for base in (ROOT.parent, ROOT.parent.parent) if (base / "shared" / "data").is_dir()),
                  ROOT.parent / "shared" / "data" / "codah" / "cv_split" / "fold_0" / "test.tsv")
TOLERANCE_POINTS = 0.5


def median_ms(fn, reps: int) -> float:
    fn()  # warm-up (first ONNX Runtime call allocates)
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000.0


def load_data(quick: bool, codah: Path):
    from mlcore.data.codah import read_codah_file
    from mlcore.testing import make_toy_examples

    if quick:
        return make_toy_examples(24, seed=7)
    if not codah.is_file():
        raise SystemExit(f"CODAH fold 0 test not found at {codah} (see --codah)")
    # every row of the file, as the published splits have it (the product's limits reject a few)
    return list(read_codah_file(codah, max_prompt_chars=10_000, max_choice_chars=10_000,
                                allow_duplicate_choices=True).examples)


def batch(tokenizer, examples, max_length: int):
    from mlcore.models.inference import encode_pairs

    return encode_pairs(tokenizer, examples, max_length=max_length, answer_only=False)  # each (q, 4, seq)


def measure_engine(scorer, engine: str, examples, reps: int) -> dict:
    from mlcore.models.engines import build_runner
    from mlcore.models.incremental import IncrementalScorer

    names = scorer.tokenizer_.model_input_names
    start = time.perf_counter()
    run = build_runner(scorer.model_, engine=engine, output="logits", input_names=names)
    build_s = time.perf_counter() - start
    one, sixteen = batch(scorer.tokenizer_, examples[:1], scorer.max_length_), batch(
        scorer.tokenizer_, examples[:16], scorer.max_length_)
    live = IncrementalScorer(scorer, engine=engine)  # no cache: every pair computed
    pair = (live.model_key_, examples[0].prompt, examples[0].choices[0])
    row = {
        "build_s": build_s,
        "ms_1x4": median_ms(lambda: run(one), reps),
        "ms_16x4": median_ms(lambda: run(sixteen), max(3, reps // 4)),
        "ms_1x4_live": median_ms(lambda: live.scores(examples[:1]), reps),
        "ms_1_pair": median_ms(lambda: live.compute_part(pair), reps),
    }
    predicted = live.predict_proba(examples).argmax(dim=-1).tolist()
    row["accuracy"] = sum(p == ex.label for p, ex in zip(predicted, examples)) / len(examples)
    return row


def run(args: argparse.Namespace) -> dict:
    import torch

    from mlcore.configs import PACKAGED_MINILM, ScorerKind, ScorerSpec
    from mlcore.models.engines import ENGINES, engine_available
    from mlcore.models.inference import MultipleChoiceModelScorer

    torch.set_num_threads(args.threads)
    model = args.model
    if args.quick:
        from mlcore.testing import build_tiny_bert

        model = str(build_tiny_bert(Path(tempfile.mkdtemp(prefix="engines-")) / "tiny", seed=0, with_head=True))
    scorer = MultipleChoiceModelScorer(ScorerSpec(ScorerKind.MULTIPLE_CHOICE, model or PACKAGED_MINILM, "bench"))
    examples = load_data(args.quick, args.codah)
    rows = {}
    for engine in ENGINES:
        if not engine_available(engine):
            print(f"{engine}: not installed, skipped", file=sys.stderr)
            continue
        print(f"{engine} ...", file=sys.stderr, flush=True)
        rows[engine] = measure_engine(scorer, engine, examples, args.reps)
    base = rows["torch"]["accuracy"]
    for row in rows.values():
        row["delta_points"] = (row["accuracy"] - base) * 100.0
    eligible = [name for name, row in rows.items() if abs(row["delta_points"]) <= TOLERANCE_POINTS]
    adopt = min(eligible, key=lambda name: rows[name]["ms_1x4_live"])
    return {"engines": rows, "adopt": adopt, "tolerance_points": TOLERANCE_POINTS,
            "cpu_capability": torch.backends.cpu.get_cpu_capability(), "torch_threads": args.threads,
            "model": model or PACKAGED_MINILM, "n_test": len(examples), "quick": args.quick}


def print_table(results: dict, out) -> None:
    print(f"\nEngines on {results['model']} ({results['cpu_capability']}, {results['torch_threads']} threads), "
          f"accuracy on {results['n_test']} questions\n", file=out)
    print(f"{'engine':<11} {'1x4 ms':>8} {'16x4 ms':>8} {'live 1x4':>9} {'1 pair':>7} {'accuracy':>9} {'delta':>7}",
          file=out)
    for name, row in results["engines"].items():
        print(f"{name:<11} {row['ms_1x4']:>8.1f} {row['ms_16x4']:>8.1f} {row['ms_1x4_live']:>9.1f} "
              f"{row['ms_1_pair']:>7.1f} {row['accuracy']:>9.3f} {row['delta_points']:>+7.1f}", file=out)
    print(f"\nfastest live engine within {results['tolerance_points']} points of torch: {results['adopt']}", file=out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="", help="multiple-choice checkpoint directory (default: packaged MiniLM)")
    parser.add_argument("--codah", type=Path, default=CODAH_TEST, help="CODAH TSV to measure accuracy on")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="tiny random model and toy questions (for the tests)")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON document on stdout")
    parser.add_argument("--out", type=Path, default=OUT_FILE, help=f"where to write the JSON (default {OUT_FILE})")
    args = parser.parse_args()
    if args.quick:
        args.reps = min(args.reps, 3)
    results = run(args)
    print_table(results, sys.stderr if args.json else sys.stdout)
    emit_result(results, args.out, as_json=args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
