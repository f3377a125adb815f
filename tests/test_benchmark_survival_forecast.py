"""benchmarks/survival_forecast.py --quick trains the real cross-validation, scores three forecasts and writes its keys."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mlcore.tests.shared_data import shared_data

ROOT = Path(__file__).resolve().parent.parent
KEYS = {"brier_base", "brier_live_rule", "brier_forecast", "logloss_base", "logloss_live_rule", "logloss_forecast",
        "auc_forecast", "calibration_slope"}


def run(*args: str) -> tuple[dict, str]:
    codah = shared_data("codah", "full_data.tsv").parent
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "survival_forecast.py"), "--json", "--data", str(codah), *args],
        capture_output=True, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"}, timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout), result.stderr  # exactly one JSON document on stdout


def test_quick_run_writes_the_stable_keys_and_reuses_its_outcomes(tmp_path):
    out, outcomes = tmp_path / "survival.json", tmp_path / "outcomes.json"
    printed, stderr = run("--quick", "--threads", "1", "--out", str(out), "--save-outcomes", str(outcomes))
    assert printed == json.loads(out.read_text())
    assert set(printed) >= KEYS and printed["quick"] is True and printed["questions"] == 60
    assert printed["folds"] == 5 and "fast_cv(epochs=1" in printed["outcome_source"]
    for key in ("brier_base", "brier_live_rule", "brier_live_rule_hard"):
        assert 0 <= printed[key] <= 1
    saved = json.loads(outcomes.read_text())
    rows = saved["rows"]
    survived = np.array([row["cv_pred"] != row["label"] for row in rows])
    fooled = np.array([int(np.argmax(row["live_probs"])) != row["label"] for row in rows])
    assert printed["survival_rate"] == pytest.approx(survived.mean(), abs=1e-6)
    assert printed["live_accuracy"] == pytest.approx(1 - fooled.mean(), abs=1e-6)
    assert printed["brier_live_rule_hard"] == pytest.approx(np.mean(fooled != survived), abs=1e-6)
    for table in (printed["reliability"]["base"], printed["reliability"]["live_rule"]):
        assert sum(b["n"] for b in table) == 60
    if printed["brier_forecast"] is not None:
        assert sum(b["n"] for b in printed["reliability"]["forecast"]) == 60
        assert printed["meets_aim"] == (printed["brier_forecast"] < min(printed["brier_base"], printed["brier_live_rule"])
                                        and printed["logloss_forecast"] < min(printed["logloss_base"],
                                                                              printed["logloss_live_rule"])
                                        and 0.8 <= printed["calibration_slope"] <= 1.2)
    assert "(c) forecast" in stderr

    again, _ = run("--quick", "--out", str(tmp_path / "again.json"), "--outcomes", str(outcomes))
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in printed.items() if k != "seconds"}
