"""Choosing annotation passages from Wikipedia articles, as PQuAD did (Darvishi et al., §3).

PQuAD ranks articles with NetworkX's PageRank over their link graph (damping 0.4) and,
for each top article, takes the introduction and the first 20 paragraphs whose length is
500-1100 characters. Here the length window applies to the introduction too (the paper
is ambiguous; a two-line introduction makes a poor task). Splits are assigned per
article so no article has paragraphs in two splits.

Input is JSON Lines, one article per line::

    {"title": "Tehran", "paragraphs": ["intro ...", "..."], "links": ["Iran"], "has_infobox": true}

Pure functions; errors carry their line number and nothing is returned half-parsed.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from mlcore.data.bounded_json import load_json

__all__ = [
    "ArticleParseError",
    "ArticleRecord",
    "RankedArticle",
    "assign_splits",
    "parse_article_lines",
    "rank_articles",
    "select_paragraphs",
]

SPLITS: tuple[str, ...] = ("train", "validation", "test")


@dataclass(frozen=True)
class ArticleRecord:
    """One article line of the import file."""

    line: int
    title: str
    paragraphs: tuple[str, ...]
    links: tuple[str, ...]
    has_infobox: bool | None


@dataclass(frozen=True)
class RankedArticle:
    """An article with its PageRank and rank (1 = most central)."""

    record: ArticleRecord
    pagerank: float
    rank: int


class ArticleParseError(ValueError):
    """The import file has bad lines; ``errors`` lists ``(line, message)``."""

    def __init__(self, errors: Sequence[tuple[int, str]]) -> None:
        self.errors = list(errors)
        shown = [f"line {line}: {message}" for line, message in self.errors[:50]]
        more = f"\n... and {len(self.errors) - 50} more" if len(self.errors) > 50 else ""
        super().__init__(f"{len(self.errors)} bad line(s), nothing imported:\n" + "\n".join(shown) + more)


def _string_list(value: object, field: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f'"{field}" must be a list of strings')
    return tuple(value)


def _record(line: int, obj: object) -> ArticleRecord:
    if not isinstance(obj, dict):
        raise ValueError("each line must be a JSON object")
    title = obj.get("title")
    if not isinstance(title, str) or not title.strip():
        raise ValueError('"title" must be a non-empty string')
    if "paragraphs" not in obj:
        raise ValueError('"paragraphs" is missing')
    paragraphs = _string_list(obj["paragraphs"], "paragraphs")
    if not any(p.strip() for p in paragraphs):
        raise ValueError(f"article {title!r} has no text in its paragraphs")
    links = _string_list(obj.get("links", []), "links")
    infobox = obj.get("has_infobox")
    if infobox is not None and not isinstance(infobox, bool):
        raise ValueError('"has_infobox" must be true or false')
    return ArticleRecord(line, title.strip(), paragraphs, links, infobox)


def parse_article_lines(lines: Iterable[str]) -> tuple[ArticleRecord, ...]:
    """Parse JSON Lines of articles; blank lines are skipped.

    Raises
    ------
    ArticleParseError
        Listing every bad line (invalid JSON, missing or mistyped field, repeated title)
        or an empty file.

    Examples
    --------
    >>> parse_article_lines(['{"title": "A", "paragraphs": ["x"], "links": []}'])[0].title
    'A'
    """
    records: list[ArticleRecord] = []
    errors: list[tuple[int, str]] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            record = _record(number, load_json(raw))
        except json.JSONDecodeError as exc:
            errors.append((number, f"not valid JSON ({exc.msg} at column {exc.colno})"))
            continue
        except ValueError as exc:
            errors.append((number, str(exc)))
            continue
        if record.title in seen:
            errors.append((number, f"title {record.title!r} already appeared on line {seen[record.title]}"))
            continue
        seen[record.title] = number
        records.append(record)
    if not records and not errors:
        errors.append((1, "the file has no articles"))
    if errors:
        raise ArticleParseError(errors)
    return tuple(records)


def rank_articles(records: Sequence[ArticleRecord], *, damping: float = 0.4) -> tuple[RankedArticle, ...]:
    """Order articles by PageRank over their links (links to titles not in ``records`` are ignored).

    Ties keep the file order. ``damping`` is NetworkX's ``alpha`` (PQuAD used 0.4).

    Examples
    --------
    >>> a = ArticleRecord(1, "A", ("x",), ("B",), None)
    >>> b = ArticleRecord(2, "B", ("y",), (), None)
    >>> [r.record.title for r in rank_articles([a, b])]
    ['B', 'A']
    """
    import networkx as nx

    if not 0.0 <= damping <= 1.0:
        raise ValueError(f"damping must be in [0, 1], got {damping}")
    if not records:
        return ()
    graph = nx.DiGraph()
    graph.add_nodes_from(r.title for r in records)
    titles = set(graph.nodes)
    graph.add_edges_from((r.title, link) for r in records for link in r.links if link in titles and link != r.title)
    scores = nx.pagerank(graph, alpha=damping)
    order = sorted(range(len(records)), key=lambda i: (-scores[records[i].title], i))
    return tuple(RankedArticle(records[i], float(scores[records[i].title]), rank) for rank, i in enumerate(order, 1))


def select_paragraphs(paragraphs: Sequence[str], *, min_chars: int = 500, max_chars: int = 1100,
                      limit: int = 20) -> tuple[tuple[int, str], ...]:
    """The introduction plus the first ``limit`` later paragraphs within the length window.

    Returns ``(position in the article, text)`` pairs; position 0 is the introduction.
    Lengths are in code points of the stripped paragraph.

    Examples
    --------
    >>> select_paragraphs(["intro " * 10, "short", "long " * 12], min_chars=10, max_chars=100, limit=5)[1][0]
    2
    """
    if min_chars > max_chars:
        raise ValueError("min_chars must not exceed max_chars")
    chosen: list[tuple[int, str]] = []
    for position, raw in enumerate(paragraphs):
        text = raw.strip()
        if not min_chars <= len(text) <= max_chars:
            continue
        if position > 0 and sum(1 for p, _ in chosen if p > 0) >= limit:
            break
        chosen.append((position, text))
    return tuple(chosen)


def assign_splits(keys: Sequence[str], ratios: Mapping[str, float], *, seed: int = 0) -> dict[str, str]:
    """Assign each key (an article title) to one split, in proportions ``ratios``.

    Counts are rounded with the largest-remainder method, so they add up to ``len(keys)``;
    which key goes where is a seeded shuffle.

    Examples
    --------
    >>> out = assign_splits([str(i) for i in range(10)], {"train": 0.8, "validation": 0.1, "test": 0.1})
    >>> sorted(list(out.values()).count(s) for s in ("train", "validation", "test"))
    [1, 1, 8]
    """
    unknown = set(ratios) - set(SPLITS)
    if unknown:
        raise ValueError(f"unknown split(s) {sorted(unknown)}")
    if any(r < 0 for r in ratios.values()) or not math.isclose(sum(ratios.values()), 1.0, abs_tol=1e-6):
        raise ValueError("split ratios must be non-negative and add up to 1")
    n = len(keys)
    exact = {s: ratios.get(s, 0.0) * n for s in SPLITS}
    counts = {s: math.floor(v) for s, v in exact.items()}
    by_remainder = sorted(SPLITS, key=lambda s: (-(exact[s] - counts[s]), SPLITS.index(s)))
    for s in by_remainder[: n - sum(counts.values())]:
        counts[s] += 1
    shuffled = list(keys)
    random.Random(seed).shuffle(shuffled)
    out: dict[str, str] = {}
    cursor = 0
    for s in SPLITS:
        for key in shuffled[cursor: cursor + counts[s]]:
            out[key] = s
        cursor += counts[s]
    return out
