"""The results of ``live_feedback.py``: its JSON document (stable keys, listed there) and its table.

A sibling module of the script (``benchmarks/`` is not a package; the script puts its folder on
``sys.path``), kept apart so the measuring code reads top to bottom.
"""
from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field

import numpy as np


@dataclass
class CrowdResult:
    latencies: list[float] = field(default_factory=list)  # send -> prediction, answered drafts
    drafts_sent: int = 0
    answered_in_pause: int = 0
    final_drafts: int = 0
    final_answered: int = 0
    stale: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50": float("nan"), "p95": float("nan"), "n": 0}
    p50, p95 = np.percentile(np.asarray(values) * 1000.0, [50, 95])
    return {"p50": float(p50), "p95": float(p95), "n": len(values)}


def report(bare: dict[str, list[float]], single: list[float], crowd: CrowdResult, args: argparse.Namespace,
           context: dict) -> dict:
    bare_ms, single_ms, crowd_ms = percentiles(bare["paced"]), percentiles(single), percentiles(crowd.latencies)
    back_to_back_ms = percentiles(bare["back_to_back"])
    answered = len(crowd.latencies)
    debounce_ms = context["debounce_ms"]
    return {
        **context, "authors": args.authors, "seconds": args.seconds, "quick": args.quick, "cpus": os.cpu_count(),
        "bare_forward_ms": bare_ms, "bare_forward_back_to_back_ms": back_to_back_ms,
        "bare_forward_main_thread_ms": percentiles(bare["main_thread"]), "round_trip_1_author_ms": single_ms,
        "ratio_p50": single_ms["p50"] / bare_ms["p50"], "ratio_p95": single_ms["p95"] / bare_ms["p95"],
        "ratio_p50_back_to_back": single_ms["p50"] / back_to_back_ms["p50"],
        "authors_p50_ms": crowd_ms["p50"], "authors_p95_ms": crowd_ms["p95"],
        "authors_p95_from_last_key_ms": crowd_ms["p95"] + debounce_ms,
        "drafts_sent": crowd.drafts_sent, "drafts_answered": answered,
        "superseded": crowd.drafts_sent - answered,
        "pauses_answered_share": crowd.answered_in_pause / crowd.drafts_sent if crowd.drafts_sent else float("nan"),
        "final_drafts": crowd.final_drafts, "final_drafts_answered": crowd.final_answered,
        "rate_limited": crowd.statuses.get("rate_limited", 0), "stale": crowd.stale, "statuses": crowd.statuses,
        "errors": len(crowd.errors), "error_messages": crowd.errors[:10],
    }


def print_table(results: dict, out) -> None:
    print(f"\nLive feedback, model {results['model']} on {results['engine']} ({results['cpu_capability']}, "
          f"{results['torch_threads']} threads, {results['cpus']} CPUs), debounce {results['debounce_ms']} ms, "
          f"draft limit {results['draft_rate']:.1f}/s, {results['seconds']:.0f} s of typing\n", file=out)
    print(f"{'measure':<56} {'n':>5} {'p50 ms':>9} {'p95 ms':>9}", file=out)
    rows = [("(a) bare forward, 1 question x 4 choices, (b)'s cadence", results["bare_forward_ms"]),
            ("    same, back to back", results["bare_forward_back_to_back_ms"]),
            ("    same, back to back, in the main thread", results["bare_forward_main_thread_ms"]),
            ("(b) websocket round trip, 1 author", results["round_trip_1_author_ms"]),
            (f"(c) {results['authors']} authors, pause to prediction",
             {"p50": results["authors_p50_ms"], "p95": results["authors_p95_ms"], "n": results["drafts_answered"]})]
    for label, row in rows:
        print(f"{label:<56} {row['n']:>5} {row['p50']:>9.1f} {row['p95']:>9.1f}", file=out)
    print(f"\nround trip / bare forward at the same cadence, 1 author: p50 {results['ratio_p50']:.2f}x, p95 "
          f"{results['ratio_p95']:.2f}x (aim p50 <= 1.2); / bare forward back to back: p50 "
          f"{results['ratio_p50_back_to_back']:.2f}x", file=out)
    print(f"{results['authors']} authors: pause to prediction p95 {results['authors_p95_ms']:.0f} ms (aim < 300; "
          f"{results['authors_p95_from_last_key_ms']:.0f} ms from the last keystroke); drafts sent "
          f"{results['drafts_sent']}, answered {results['drafts_answered']} ({results['pauses_answered_share']:.0%} "
          f"before typing resumed), superseded {results['superseded']}; final drafts answered "
          f"{results['final_drafts_answered']} of {results['final_drafts']}; rate limited {results['rate_limited']}; "
          f"stale {results['stale']}; errors {results['errors']}", file=out)
