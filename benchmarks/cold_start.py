"""Cold start of a web process's live model, with and without the engine cache, side by side.

    .venv/bin/python benchmarks/cold_start.py [--model DIR] [--engine onnx] [--reps 3] [--quick] [--json] [--out PATH]

Each measurement is a fresh Python process (what a restart is), timed from its start to the first
answered draft: import, load the checkpoint, build the engine (mlcore.models.live), one prediction.

* ``cold_s``: the engine cache folder is empty (a first start; the export is kept);
* ``restart_cached_s``: the same folder, now holding the exported graph (a restart);
* ``restart_uncached_s``: no cache at all (every start before the cache existed).

Without ``--model`` the packaged MiniLM is saved once with a multiple-choice head (what a
fine-tuned checkpoint is) and every process loads that folder.

Medians over ``--reps`` restarts each; ``speedup`` = uncached / cached. Headline keys of
benchmarks/out/cold_start.json (stable): ``cold_s``, ``restart_cached_s``, ``restart_uncached_s``,
``speedup``, ``parts_cached`` and ``parts_uncached`` (seconds per phase of the median restart),
``engine``, ``model``, ``cpu``, ``cpu_capability``, ``torch_threads``, ``quick``. ``--quick``: a tiny
random BERT written to a temporary folder, same code path.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmark_output import emit_result  # noqa: E402

OUT_FILE = ROOT / "benchmarks" / "out" / "cold_start.json"
EXAMPLE = ("The glass fell off the table. It", ("shattered on the floor.", "sang a song.", "flew away.", "became a cat."))


def child(model: str, engine: str) -> dict:
    """Run in the measured process: the phases up to the first prediction, in seconds."""
    marks = [time.perf_counter()]
    import torch  # noqa: F401
    import transformers  # noqa: F401

    marks.append(time.perf_counter())
    from mlcore.configs import PACKAGED_MINILM, MCExample, ScorerKind, ScorerSpec
    from mlcore.models.incremental import IncrementalScorer
    from mlcore.models.inference import build_scorer
    from mlcore.models.inference_cache import shared_cache

    spec = ScorerSpec(ScorerKind.MULTIPLE_CHOICE, model or PACKAGED_MINILM, "cold-start")
    scorer = build_scorer(spec)  # what mlcore.models.live's encoder model does when it warms up
    marks.append(time.perf_counter())
    live = IncrementalScorer(scorer, engine=engine, cache=shared_cache)
    marks.append(time.perf_counter())
    live.predict([MCExample(EXAMPLE[0], EXAMPLE[1])])
    marks.append(time.perf_counter())
    phases = ("import_torch_transformers_s", "load_checkpoint_s", "build_engine_s", "first_predict_s")
    return {name: marks[i + 1] - marks[i] for i, name in enumerate(phases)}


def restart(model: str, engine: str, cache: Path | None, threads: int) -> dict:
    """One fresh process; its phases and its wall time from spawn to answer."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": str(threads)}
    env.pop("STUMPER_ENGINE_CACHE_DIR", None)
    if cache is not None:
        env["STUMPER_ENGINE_CACHE_DIR"] = str(cache)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, "--child", "--model", model, "--engine", engine],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=900)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"the measured process failed:\n{done.stderr[-3000:]}")
    return {"wall_s": wall, **json.loads(done.stdout.strip().splitlines()[-1])}


def saved_minilm(folder: Path) -> Path:
    """The packaged MiniLM with a multiple-choice head, saved once: as a fine-tuned checkpoint
    would be. (Loaded straight from the package, the untrained head is drawn anew in every
    process: other weights, so rightly another engine each time.)"""
    import torch
    from transformers import AutoModelForMultipleChoice, AutoTokenizer

    from mlcore.configs import PACKAGED_MINILM
    from mlcore.models.loading import resolve_checkpoint

    torch.manual_seed(0)
    source = resolve_checkpoint(PACKAGED_MINILM)
    AutoModelForMultipleChoice.from_pretrained(source).save_pretrained(folder)
    AutoTokenizer.from_pretrained(source).save_pretrained(folder)
    return folder


def median_run(runs: list[dict]) -> dict:
    ordered = sorted(runs, key=lambda run: run["wall_s"])
    return ordered[len(ordered) // 2]


def run(args: argparse.Namespace) -> dict:
    import torch

    from mlcore.models.hardware import detect_cpu

    with tempfile.TemporaryDirectory(prefix="stumper-cold-start-") as tmp:
        model = args.model
        if args.quick:
            from mlcore.testing import build_tiny_bert

            model = str(build_tiny_bert(Path(tmp) / "tiny-model"))
        elif not model:
            model = str(saved_minilm(Path(tmp) / "minilm-mc"))
        cache = Path(tmp) / "engine-cache"
        cold = restart(model, args.engine, cache, args.threads)
        print(f"cold start (empty cache): {cold['wall_s']:.2f} s", file=sys.stderr)
        cached, uncached = [], []
        for rep in range(args.reps):  # interleaved, so a busy moment of the machine hits both
            cached.append(restart(model, args.engine, cache, args.threads))
            uncached.append(restart(model, args.engine, None, args.threads))
            print(f"restart {rep + 1}/{args.reps}: cached {cached[-1]['wall_s']:.2f} s, "
                  f"uncached {uncached[-1]['wall_s']:.2f} s", file=sys.stderr)
        kept = len(list(cache.glob("*.onnx")))
    restart_cached = statistics.median(run["wall_s"] for run in cached)
    restart_uncached = statistics.median(run["wall_s"] for run in uncached)
    return {
        "cold_s": round(cold["wall_s"], 3), "restart_cached_s": round(restart_cached, 3),
        "restart_uncached_s": round(restart_uncached, 3), "speedup": round(restart_uncached / restart_cached, 3),
        "parts_cached": median_run(cached), "parts_uncached": median_run(uncached), "graphs_kept": kept,
        "engine": args.engine, "model": "tiny random BERT" if args.quick else args.model or "packaged MiniLM", "cpu": detect_cpu().model_name,
        "cpu_capability": torch.backends.cpu.get_cpu_capability(), "torch_threads": args.threads,
        "reps": args.reps, "quick": args.quick,
    }


def print_table(results: dict, out) -> None:
    print(f"\nFirst answered draft of a fresh process, {results['model']} on {results['engine']} "
          f"({results['cpu']}, {results['cpu_capability']}, {results['torch_threads']} threads):", file=out)
    print(f"  first start, empty cache  {results['cold_s']:7.2f} s", file=out)
    print(f"  restart, engine cached    {results['restart_cached_s']:7.2f} s", file=out)
    print(f"  restart, no cache         {results['restart_uncached_s']:7.2f} s   ({results['speedup']:.2f}x slower)",
          file=out)
    for name in ("parts_cached", "parts_uncached"):
        parts = ", ".join(f"{k} {v:.2f}" for k, v in results[name].items())
        print(f"  {name}: {parts}", file=out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="", help="multiple-choice checkpoint directory (default: packaged MiniLM)")
    parser.add_argument("--engine", default="onnx", choices=["onnx", "onnx-int8"])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="tiny random model, one restart each (for the tests)")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON document on stdout")
    parser.add_argument("--out", type=Path, default=OUT_FILE, help=f"where to write the JSON (default {OUT_FILE})")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.model, args.engine)))
        return 0
    if args.quick:
        args.reps = 1
    results = run(args)
    print_table(results, sys.stderr if args.json else sys.stdout)
    emit_result(results, args.out, as_json=args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
