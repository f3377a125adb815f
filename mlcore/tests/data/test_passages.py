"""Passage selection: article JSON Lines, PageRank ranking, paragraph window, splits (mlcore.data.passages)."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from mlcore.data.passages import (
    ArticleParseError,
    ArticleRecord,
    assign_splits,
    parse_article_lines,
    rank_articles,
    select_paragraphs,
)


def _line(**fields) -> str:
    return json.dumps(fields, ensure_ascii=False)


def test_parse_reads_fields_and_skips_blank_lines() -> None:
    records = parse_article_lines([
        _line(title="تهران", paragraphs=["متن"], links=["ایران"], has_infobox=True), "   ",
        _line(title="Iran", paragraphs=["text"]),
    ])
    assert [r.title for r in records] == ["تهران", "Iran"]
    assert records[0].has_infobox is True and records[1].links == () and records[1].line == 3


def test_parse_reports_every_bad_line_and_returns_nothing() -> None:
    lines = [
        _line(title="A", paragraphs=["x"]),
        "{not json",
        _line(title="", paragraphs=["x"]),
        _line(title="B"),
        _line(title="C", paragraphs="x"),
        _line(title="D", paragraphs=["x"], links=[1]),
        _line(title="E", paragraphs=["x"], has_infobox="yes"),
        _line(title="A", paragraphs=["y"]),
        _line(title="F", paragraphs=["  "]),
        "[1, 2]",
    ]
    with pytest.raises(ArticleParseError) as info:
        parse_article_lines(lines)
    found = dict(info.value.errors)
    assert sorted(found) == [2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert "not valid JSON" in found[2]
    assert '"paragraphs" is missing' in found[4]
    assert "already appeared on line 1" in found[8]
    assert "line 2:" in str(info.value) and "nothing imported" in str(info.value)


def test_parse_refuses_an_empty_file() -> None:
    with pytest.raises(ArticleParseError, match="no articles"):
        parse_article_lines(["", "\n"])


def _records(links: dict[str, list[str]]) -> list[ArticleRecord]:
    return [ArticleRecord(i + 1, t, ("p",), tuple(ls), None) for i, (t, ls) in enumerate(links.items())]


def test_rank_matches_networkx_pagerank_with_damping_04() -> None:
    links = {"A": ["B", "C"], "B": ["C"], "C": ["A"], "D": ["C", "Nowhere"]}
    ranked = rank_articles(_records(links), damping=0.4)
    graph = nx.DiGraph([(s, t) for s, ts in links.items() for t in ts if t in links])
    expected = nx.pagerank(graph, alpha=0.4)
    assert [r.record.title for r in ranked][0] == "C"
    for r in ranked:
        assert r.pagerank == pytest.approx(expected[r.record.title], abs=1e-9)
    assert [r.rank for r in ranked] == [1, 2, 3, 4]
    assert sum(r.pagerank for r in ranked) == pytest.approx(1.0)


def test_damping_changes_the_scores_and_is_validated() -> None:
    links = {"A": ["B"], "B": ["C"], "C": ["B"]}
    low = {r.record.title: r.pagerank for r in rank_articles(_records(links), damping=0.4)}
    high = {r.record.title: r.pagerank for r in rank_articles(_records(links), damping=0.85)}
    assert low["B"] != pytest.approx(high["B"])
    with pytest.raises(ValueError, match="damping"):
        rank_articles(_records(links), damping=1.5)


def test_ties_keep_file_order() -> None:
    ranked = rank_articles(_records({"Z": [], "Y": [], "X": []}))
    assert [r.record.title for r in ranked] == ["Z", "Y", "X"]


def test_select_paragraphs_takes_the_intro_and_the_first_n_in_the_window() -> None:
    text = ["i" * 600, "s" * 100, *[f"{k}" * 700 for k in range(1, 10)], "l" * 2000]
    chosen = select_paragraphs(text, min_chars=500, max_chars=1100, limit=3)
    assert [p for p, _ in chosen] == [0, 2, 3, 4]
    assert chosen[1][1] == "1" * 700


def test_select_paragraphs_applies_the_window_to_the_intro_and_strips() -> None:
    chosen = select_paragraphs(["short intro", "  " + "x" * 520 + "  "], min_chars=500, max_chars=1100)
    assert chosen == ((1, "x" * 520),)
    with pytest.raises(ValueError):
        select_paragraphs([], min_chars=10, max_chars=5)


def test_splits_follow_the_ratios_and_are_deterministic() -> None:
    keys = [f"t{i}" for i in range(23)]
    ratios = {"train": 0.7, "validation": 0.15, "test": 0.15}
    out = assign_splits(keys, ratios, seed=3)
    assert set(out) == set(keys)
    counts = {s: list(out.values()).count(s) for s in ("train", "validation", "test")}
    assert counts == {"train": 16, "validation": 4, "test": 3}  # 16.1, 3.45, 3.45 by largest remainder
    assert assign_splits(keys, ratios, seed=3) == out
    assert assign_splits(keys, ratios, seed=4) != out


def test_splits_validate_ratios() -> None:
    with pytest.raises(ValueError, match="add up to 1"):
        assign_splits(["a"], {"train": 0.5, "test": 0.4})
    with pytest.raises(ValueError, match="unknown split"):
        assign_splits(["a"], {"dev": 1.0})
