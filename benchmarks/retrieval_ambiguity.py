"""Retrieval-ambiguity benchmark: bm25s (the product's BM25) against a straightforward pure-Python BM25.

    nice -n 15 .venv/bin/python benchmarks/retrieval_ambiguity.py [--squad PATH] [--repeat 20] [--k 100]
        [--quick] [--out PATH] [--json]

Passages are the contexts of the English SQuAD 2.0 subset in ``../shared/data/squad2-subset``
(487 paragraphs of 12 articles), repeated ``--repeat`` times to reach a realistic project size;
the queries are the 70 UnQover questions "Who was a(n) <occupation>?" of the probe. Both
implementations use the same tokens (:func:`mlcore.bias.retrieval.bm25_tokens`) and the same Lucene
BM25 formula, so they must return the same top k (ties broken by lower passage index); the script
checks that, then prints the time of each to build the index (tokenising included) and to answer
the 70 questions, the speed ratios, and writes benchmarks/out/retrieval_ambiguity.json.

``--quick`` (tests/test_benchmark_retrieval_ambiguity.py): the passages once (``--repeat 1``),
same code path, a few seconds. ``--out PATH`` writes the JSON elsewhere; ``--json`` prints it on
stdout (the table then goes to stderr). Keys of the JSON (stable):

* ``quick`` (bool), ``passages``, ``questions``, ``k`` (ints): what was run;
* ``same_top_k`` (bool): bm25s and the pure-Python BM25 return the same top k for every question;
  ``tie_swaps`` (int): positions that differ only between passages of equal score;
* ``bm25s`` and ``python``: ``{"index_s", "search_s"}``, wall-clock seconds to build the index
  (tokenising and stemming included) and to answer every question;
* ``ratios``: ``{"index", "search", "total"}``, pure-Python time / bm25s time.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmark_output import emit_result  # noqa: E402

from mlcore.bias.ambiguity_data import unqover_occupations  # noqa: E402
from mlcore.bias.retrievers import BM25Config, BM25Retriever, Hit, bm25_tokens  # noqa: E402

DEFAULT_SQUAD = ROOT.parent / "shared" / "data" / "squad2-subset" / "dev-subset-v2.0.json"


def read_contexts(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [f"{article['title']}\n{p['context']}" for article in data["data"] for p in article["paragraphs"]]


class PythonBM25:
    """Lucene BM25 the straightforward way: one Counter per passage, every passage scored per query."""

    def __init__(self, config: BM25Config) -> None:
        self.config = config

    def fit(self, texts: list[str]) -> PythonBM25:
        self.docs_ = [Counter(bm25_tokens(t, stem=self.config.stem)) for t in texts]
        self.lengths_ = [sum(d.values()) for d in self.docs_]
        n, self.avgdl_ = len(self.docs_), sum(self.lengths_) / len(self.docs_)
        df: Counter[str] = Counter()
        for d in self.docs_:
            df.update(d.keys())
        self.idf_ = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        return self

    def search(self, queries: list[str], k: int) -> list[list[Hit]]:
        k1, b = self.config.k1, self.config.b
        out = []
        for query in queries:
            terms = bm25_tokens(query, stem=self.config.stem)
            scores = []
            for i, (d, length) in enumerate(zip(self.docs_, self.lengths_)):
                norm = k1 * (1 - b + b * length / self.avgdl_)
                score = sum(self.idf_[t] * d[t] / (d[t] + norm) for t in terms if d[t])
                if score > 0:
                    scores.append((-score, i))
            scores.sort()
            out.append([Hit(i, -s) for s, i in scores[:k]])
        return out


def timed(retriever, texts: list[str], queries: list[str], k: int) -> tuple[list, float, float]:
    start = time.perf_counter()
    retriever.fit(texts)
    index_s = time.perf_counter() - start
    start = time.perf_counter()
    hits = retriever.search(queries, k)
    return hits, index_s, time.perf_counter() - start


def same_top_k(a: list[Hit], b: list[Hit], tol: float = 1e-9) -> tuple[bool, int]:
    """Same ranking, allowing two passages of equal score (within ``tol``) to trade places.

    Returns ``(same, positions that differ)``. Both sides break exact ties by index, so a
    difference can only come from float rounding between passages whose scores are equal.
    """
    if len(a) != len(b):
        return False, 0
    differ = 0
    for i, (x, y) in enumerate(zip(a, b)):
        if abs(x.score - y.score) > tol * max(1.0, abs(x.score)):
            return False, differ
        if x.index != y.index:
            differ += 1
            neighbours = [a[j].score for j in (i - 1, i + 1) if 0 <= j < len(a)]
            if i != len(a) - 1 and not any(abs(s - x.score) <= tol * max(1.0, abs(s)) for s in neighbours):
                return False, differ
    return True, differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--squad", type=Path, default=DEFAULT_SQUAD, help="SQuAD-format JSON whose contexts are searched")
    parser.add_argument("--repeat", type=int, default=20, help="Repeat the passages this many times (default 20)")
    parser.add_argument("--k", type=int, default=100, help="Passages per question (default 100)")
    parser.add_argument("--quick", action="store_true", help="The passages once (--repeat 1): a few seconds")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out" / "retrieval_ambiguity.json",
                        help="Where to write the JSON (default benchmarks/out/retrieval_ambiguity.json)")
    parser.add_argument("--json", action="store_true", help="Print the JSON on stdout (the table goes to stderr)")
    args = parser.parse_args()
    if not args.squad.is_file():
        sys.exit(f"No SQuAD file at {args.squad} (give --squad PATH)")
    repeat = 1 if args.quick else args.repeat
    table = sys.stderr if args.json else sys.stdout
    texts = read_contexts(args.squad) * repeat
    queries = [o.question for o in unqover_occupations()]
    config = BM25Config()
    print(f"{len(texts)} passages ({len(texts) // repeat} x {repeat}), {len(queries)} questions, k = {args.k}",
          file=table)

    fast, fast_index, fast_search = timed(BM25Retriever(config), texts, queries, args.k)
    slow, slow_index, slow_search = timed(PythonBM25(config), texts, queries, args.k)
    checks = [same_top_k(list(f), s) for f, s in zip(fast, slow)]
    agree = all(ok for ok, _ in checks)
    swaps = sum(n for _, n in checks)
    print(f"same top-{args.k} for all {len(queries)} questions: {'yes' if agree else 'NO'} "
          f"({sum(len(f) for f in fast)} hits; {swaps} positions differ only inside ties of equal score)", file=table)
    print(f"{'':<20}{'index s':>10}{'search s':>11}{'total s':>10}   (index includes tokenising and stemming)",
          file=table)
    for name, index_s, search_s in (("bm25s (product)", fast_index, fast_search),
                                    ("pure-Python BM25", slow_index, slow_search)):
        print(f"{name:<20}{index_s:>10.3f}{search_s:>11.4f}{index_s + search_s:>10.3f}", file=table)
    ratios = {"index": slow_index / fast_index, "search": slow_search / fast_search,
              "total": (slow_index + slow_search) / (fast_index + fast_search)}
    print("speed ratio (pure Python / bm25s): " + ", ".join(f"{k} {v:.1f}x" for k, v in ratios.items()), file=table)
    result = {
        "quick": args.quick, "passages": len(texts), "questions": len(queries), "k": args.k, "same_top_k": agree,
        "tie_swaps": swaps, "bm25s": {"index_s": fast_index, "search_s": fast_search},
        "python": {"index_s": slow_index, "search_s": slow_search}, "ratios": ratios,
    }
    emit_result(result, args.out, as_json=args.json)
    if not agree:
        sys.exit("bm25s and the pure-Python BM25 disagree")


if __name__ == "__main__":
    main()
