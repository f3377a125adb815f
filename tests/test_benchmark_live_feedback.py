"""benchmarks/live_feedback.py --quick runs end to end (tiny model, 3 authors) and reports its keys.

A change that breaks the benchmark (the draft rate limit, the socket protocol, the page's debounce
constant) fails here. Timings are not asserted beyond sanity: the machine is shared.
"""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_live_feedback_quick_runs_and_writes_its_headline_keys(tmp_path):
    out = tmp_path / "live_feedback.json"
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "live_feedback.py"), "--quick", "--json", "--out", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout)  # exactly one JSON document on stdout
    assert json.loads(out.read_text()) == results
    for key in ("ratio_p50", "authors_p95_ms", "drafts_sent", "drafts_answered", "final_drafts",
                "final_drafts_answered", "pauses_answered_share", "superseded", "rate_limited", "errors"):
        assert key in results, key
    assert results["quick"] is True and results["authors"] == 3
    # The limit is what the page can send: one draft per debounce of static/js/author/live.js.
    assert results["draft_rate"] == 1000 / results["debounce_ms"] and results["rate_limited"] == 0
    assert results["final_drafts"] == 3 and results["final_drafts_answered"] == 3
    assert results["drafts_sent"] >= results["final_drafts"]
    assert results["drafts_answered"] + results["superseded"] == results["drafts_sent"]
    assert results["errors"] == 0
    assert math.isfinite(results["ratio_p50"]) and results["ratio_p50"] > 0
    assert 0 < results["authors_p95_ms"] < 60_000
