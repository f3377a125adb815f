"""benchmarks/inference_engines.py --quick runs every installed engine on a tiny model and reports its keys."""
import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_inference_engines_quick_runs_and_writes_its_headline_keys(tmp_path):
    out = tmp_path / "inference_engines.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "inference_engines.py"), "--quick", "--json", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout)
    assert json.loads(out.read_text()) == results
    assert results["quick"] is True and results["cpu_capability"] and results["torch_threads"] == 2
    assert {"torch", "onnx", "onnx-int8", "torch-int8"} <= set(results["engines"])
    assert results["engines"]["torch"]["delta_points"] == 0.0
    assert results["adopt"] in results["engines"]
    assert abs(results["engines"][results["adopt"]]["delta_points"]) <= results["tolerance_points"]
    for row in results["engines"].values():
        for key in ("ms_1x4", "ms_16x4", "ms_1x4_live", "ms_1_pair"):
            assert math.isfinite(row[key]) and row[key] > 0, key
        assert 0.0 <= row["accuracy"] <= 1.0
