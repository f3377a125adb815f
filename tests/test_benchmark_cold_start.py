"""benchmarks/cold_start.py --quick restarts a tiny model with and without the engine cache and reports its keys."""
import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_cold_start_quick_runs_and_writes_its_headline_keys(tmp_path):
    out = tmp_path / "cold_start.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "cold_start.py"), "--quick", "--json", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout)
    assert json.loads(out.read_text()) == results
    assert results["quick"] is True and results["engine"] == "onnx" and results["cpu"]
    for key in ("cold_s", "restart_cached_s", "restart_uncached_s", "speedup"):
        assert math.isfinite(results[key]) and results[key] > 0, key
    # The first start exported one graph and every cached restart found it: still exactly one.
    assert results["graphs_kept"] == 1
    for parts in (results["parts_cached"], results["parts_uncached"]):
        assert set(parts) == {"wall_s", "import_torch_transformers_s", "load_checkpoint_s", "build_engine_s",
                              "first_predict_s"}
