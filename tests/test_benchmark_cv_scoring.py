"""benchmarks/cv_scoring.py --quick runs the real code path end to end and writes its stable keys."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from mlcore.tests.shared_data import shared_data

ROOT = Path(__file__).resolve().parent.parent


def test_quick_run_writes_the_headline_keys(tmp_path):
    codah = shared_data("codah", "full_data.tsv").parent
    out = tmp_path / "cv_scoring.json"
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "cv_scoring.py"), "--quick", "--threads", "1", "--out", str(out),
         "--json", "--data", str(codah)],
        capture_output=True, text=True, env=env, timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    printed = json.loads(result.stdout)  # exactly one JSON document on stdout
    assert printed == json.loads(out.read_text())
    assert printed["cpu_capability"] == torch.backends.cpu.get_cpu_capability()
    assert printed["precision"] in ("float32", "bfloat16") and printed["precision_reason"]
    assert printed["cpu_model"] and printed["quick"] is True and printed["questions"] == 60
    assert printed["speedup"] > 0 and printed["seconds_per_step_default"] > 0 and printed["seconds_per_step_plain"] > 0
    assert printed["speedup"] == pytest.approx(
        printed["seconds_per_step_plain"] / printed["seconds_per_step_default"], rel=0.01)
    assert 0 <= printed["accuracy_default"] <= 1 and 0 <= printed["accuracy_plain"] <= 1
    assert printed["total_seconds_5_folds"] > 0 and printed["threads_default"] == printed["threads_plain"] == 1
    folds = [row for row in printed["per_fold"] if row["setting"] == "default"]
    assert [row["fold"] for row in folds] == [0, 1, 2, 3, 4]
    assert sum(row["test"] for row in folds) == 60  # the official test files partition the questions
    assert "CPU:" in result.stderr and "seconds per step" in result.stderr
