"""benchmarks/lexical_stats.py --quick: mlcore agrees with the pure-Python version, and the JSON keys."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_quick_run_cross_checks_and_writes_its_keys(tmp_path):
    out = tmp_path / "lexical_stats.json"
    result = subprocess.run([sys.executable, "benchmarks/lexical_stats.py", "--quick", "--out", str(out), "--json"],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    printed = json.loads(result.stdout)
    assert printed == json.loads(out.read_text(encoding="utf-8"))
    assert set(printed) == {"quick", "n", "eval_n", "vocab", "threads", "subsample", "statistics", "reweighting",
                            "ratios", "checks_passed"}
    assert printed["quick"] is True and printed["checks_passed"] is True
    assert (printed["n"], printed["eval_n"], printed["subsample"]) == (20_000, 2_000, 2_000)
    assert set(printed["statistics"]) == {"wall_s", "cpu_s", "us_per_instance"}
    assert all(v > 0 for v in printed["statistics"].values())
    rw = printed["reweighting"]
    assert set(rw) == {"features", "steps", "wall_s", "cpu_s", "ms_per_step", "err_initial", "err_final"}
    assert rw["features"] > 0 and 0 < rw["steps"] <= 50 and rw["err_final"] < rw["err_initial"]
    assert set(printed["ratios"]) == {"statistics_wall", "statistics_cpu", "reweighting_wall", "reweighting_cpu"}
    assert all(v > 0 for v in printed["ratios"].values())
    assert "same counts, z (1e-9), selection, U/N and log10 p (1e-8): OK" in result.stderr
