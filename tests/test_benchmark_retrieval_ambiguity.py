"""benchmarks/retrieval_ambiguity.py --quick: same top k as the pure-Python BM25, and its JSON keys."""
import json
import subprocess
import sys
from pathlib import Path

from mlcore.tests.shared_data import shared_data

ROOT = Path(__file__).resolve().parent.parent


def test_quick_run_agrees_with_pure_python_and_writes_its_keys(tmp_path):
    squad = shared_data("squad2-subset", "dev-subset-v2.0.json")
    out = tmp_path / "retrieval_ambiguity.json"
    result = subprocess.run([sys.executable, "benchmarks/retrieval_ambiguity.py", "--quick", "--out", str(out), "--json",
                             "--squad", str(squad)],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed == json.loads(out.read_text(encoding="utf-8"))
    assert set(printed) == {"quick", "passages", "questions", "k", "same_top_k", "tie_swaps", "bm25s", "python", "ratios"}
    assert printed["quick"] is True and printed["same_top_k"] is True
    assert printed["passages"] == 487 and printed["questions"] == 70 and printed["k"] == 100
    for side in ("bm25s", "python"):
        assert set(printed[side]) == {"index_s", "search_s"} and all(v > 0 for v in printed[side].values())
    assert set(printed["ratios"]) == {"index", "search", "total"} and all(v > 0 for v in printed["ratios"].values())
    assert "same top-100 for all 70 questions: yes" in result.stderr
