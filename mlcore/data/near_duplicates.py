"""Near-duplicate questions: MinHash/LSH candidates (datasketch), exact Jaccard to confirm.

Pure functions and one scikit-learn-style index, no Django.

A question is the *set* of its words (prompt and completions) after
:func:`mlcore.bias.lexical.lexical_tokens` (lower-case, punctuation removed). So a copy with other
letter case, added punctuation, reordered words or its completions in another order has the
very same set (similarity 1.0), and one inserted word adds one element: similarity n/(n+1),
at least 0.83 on CODAH, whose shortest questions have 5 distinct words. Word bigrams were
tried too: an inserted word then changes three shingles, tiny questions fall to 0.6, and a
threshold low enough to catch them flags 6% of CODAH's questions instead of 4%.

LSH proposes candidates at a lower threshold than the one asked for (``threshold -
LSH_MARGIN``), so pairs just above the threshold are not lost to banding; every candidate's
similarity is then the exact Jaccard index of the two shingle sets.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from datasketch import MinHash, MinHashLSH

from mlcore.bias.lexical import lexical_tokens

__all__ = [
    "DEFAULT_THRESHOLD",
    "DuplicateMatch",
    "DuplicatePair",
    "DuplicateSearchResult",
    "NearDuplicateIndex",
    "find_near_duplicates",
    "jaccard",
    "precision_recall",
    "question_shingles",
]

#: Chosen on CODAH (see mlcore/tests/data/test_near_duplicates.py): every lightly edited copy is
#: found (an inserted word leaves at least 0.83), while CODAH's own 2,776 questions have
#: 111 pairs this close, mostly minimal pairs that change one word and the answer.
DEFAULT_THRESHOLD = 0.8
# With 0.25, LSH finds all 111 pairs of CODAH at or above 0.8 that an exhaustive comparison finds
# (0.15: 109) while checking 304 candidate pairs instead of 3.85 million.
LSH_MARGIN = 0.25


def question_shingles(prompt: str, choices: Sequence[str]) -> frozenset[str]:
    """The set of words of a question; case, punctuation and order do not matter.

    Examples
    --------
    >>> sorted(question_shingles("He ran.", ["Fast!", "slow"]))
    ['fast', 'he', 'ran', 'slow']
    >>> question_shingles("HE RAN", ["slow", "fast."]) == question_shingles("He ran.", ["Fast!", "slow"])
    True
    """
    return frozenset(token for segment in (prompt, *choices) for token in lexical_tokens(segment))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """``|a ∩ b| / |a ∪ b|`` (0.0 for two empty sets: nothing to compare).

    Examples
    --------
    >>> jaccard(frozenset("abc"), frozenset("bcd"))
    0.5
    """
    union = len(a | b)
    return len(a & b) / union if union else 0.0


@dataclass(frozen=True)
class DuplicateMatch:
    """An indexed question similar to the one asked about.

    Attributes
    ----------
    key : hashable
        The indexed question's key.
    similarity : float
        Exact Jaccard index of the two word sets (:func:`question_shingles`), rounded to 6 decimals.
    """

    key: Hashable
    similarity: float


@dataclass(frozen=True)
class DuplicatePair:
    """Two similar indexed questions.

    Attributes
    ----------
    a, b : hashable
        Their keys; ``a`` is the one that came first in the index.
    similarity : float
        Exact Jaccard index of their word sets (:func:`question_shingles`), rounded to 6 decimals.
    """

    a: Hashable
    b: Hashable
    similarity: float


@dataclass(frozen=True)
class DuplicateSearchResult:
    """Pairs at or above ``threshold``, most similar first, and how much work found them."""

    pairs: tuple[DuplicatePair, ...]
    threshold: float
    n_items: int
    n_candidates: int  # LSH candidate pairs checked exactly


def _check_threshold(threshold: float) -> float:
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"threshold must be in (0, 1], got {threshold!r}")
    return float(threshold)


class NearDuplicateIndex:
    """MinHash LSH index of questions.

    Parameters
    ----------
    threshold : float
        Smallest Jaccard similarity reported.
    num_perm : int
        MinHash permutations (more: better candidate recall, slower).
    seed : int
        Seed of the MinHash permutations; the same seed gives the same candidates.

    Attributes
    ----------
    keys_ : list
        Keys in insertion order.
    shingles_ : dict
        Key -> shingle set.

    Examples
    --------
    >>> index = NearDuplicateIndex(threshold=0.7).fit(
    ...     [1, 2], ["Tom forgot his umbrella. He", "The cat sat."],
    ...     [["got wet.", "stayed dry.", "flew home.", "ate rain."], ["a", "b", "c", "d"]])
    >>> [m.key for m in index.query("TOM forgot his umbrella, he", ["ate rain.", "got wet.", "stayed dry.", "flew home."])]
    [1]
    """

    def __init__(self, *, threshold: float = DEFAULT_THRESHOLD, num_perm: int = 128, seed: int = 1) -> None:
        self.threshold = threshold
        self.num_perm = num_perm
        self.seed = seed

    def fit(self, keys: Sequence[Hashable], prompts: Sequence[str], choices: Sequence[Sequence[str]]) -> NearDuplicateIndex:
        """Index the questions (replacing anything indexed before); returns ``self``."""
        _check_threshold(self.threshold)
        if not len(keys) == len(prompts) == len(choices):
            raise ValueError("keys, prompts and choices differ in length")
        if len(set(keys)) != len(keys):
            raise ValueError("keys must be unique")
        self.lsh_ = MinHashLSH(threshold=max(0.05, self.threshold - LSH_MARGIN), num_perm=self.num_perm)
        self.keys_: list[Hashable] = []
        self.shingles_: dict[Hashable, frozenset[str]] = {}
        self.order_: dict[Hashable, int] = {}
        shingle_sets = [question_shingles(p, c) for p, c in zip(prompts, choices)]
        hashes = self._minhashes(shingle_sets)
        with self.lsh_.insertion_session() as session:
            for key, shingles, minhash in zip(keys, shingle_sets, hashes):
                self._remember(key, shingles)
                if shingles:  # an empty set is similar to nothing
                    session.insert(key, minhash, check_duplication=False)
        return self

    def add(self, key: Hashable, prompt: str, choices: Sequence[str]) -> None:
        """Index one more question."""
        if key in self.shingles_:
            raise ValueError(f"key {key!r} is already indexed")
        shingles = question_shingles(prompt, choices)
        self._remember(key, shingles)
        if shingles:
            self.lsh_.insert(key, self._minhashes([shingles])[0])

    def query(self, prompt: str, choices: Sequence[str], *, exclude: Iterable[Hashable] = ()) -> tuple[DuplicateMatch, ...]:
        """Indexed questions at least ``threshold`` similar to this one, most similar first."""
        shingles = question_shingles(prompt, choices)
        return self._matches(shingles, self._candidates(shingles), set(exclude))

    def query_key(self, key: Hashable) -> tuple[DuplicateMatch, ...]:
        """Like :meth:`query` for an indexed question (itself excluded)."""
        shingles = self.shingles_[key]
        return self._matches(shingles, self._candidates(shingles), {key})

    def pairs(self, keys: Iterable[Hashable] | None = None) -> DuplicateSearchResult:
        """Every similar pair with at least one member in ``keys`` (default: all indexed keys)."""
        wanted = self.keys_ if keys is None else list(keys)
        seen: set[tuple[Hashable, Hashable]] = set()
        pairs, checked = [], 0
        for key in wanted:
            shingles = self.shingles_[key]
            for other in self._candidates(shingles):
                a, b = sorted((key, other), key=self.order_.__getitem__)
                if other == key or (a, b) in seen:
                    continue
                seen.add((a, b))
                checked += 1
                similarity = jaccard(shingles, self.shingles_[other])
                if similarity >= self.threshold:
                    pairs.append(DuplicatePair(a, b, round(similarity, 6)))
        pairs.sort(key=lambda p: (-p.similarity, self.order_[p.a], self.order_[p.b]))
        return DuplicateSearchResult(tuple(pairs), float(self.threshold), len(self.keys_), checked)

    def _remember(self, key: Hashable, shingles: frozenset[str]) -> None:
        self.order_[key] = len(self.keys_)
        self.keys_.append(key)
        self.shingles_[key] = shingles

    def _minhashes(self, shingle_sets: Sequence[frozenset[str]]) -> list[MinHash]:
        # sorted(): the same set always hashes the same, whatever the set's iteration order.
        hashes: list[MinHash] = MinHash.bulk(
            [[s.encode("utf-8") for s in sorted(shingles)] for shingles in shingle_sets],
            num_perm=self.num_perm, seed=self.seed,
        )
        return hashes

    def _candidates(self, shingles: frozenset[str]) -> list[Hashable]:
        if not shingles:
            return []
        keys: list[Hashable] = self.lsh_.query(self._minhashes([shingles])[0])
        return keys

    def _matches(self, shingles: frozenset[str], candidates: list[Hashable], exclude: set[Hashable]) -> tuple[DuplicateMatch, ...]:
        scored = [(key, jaccard(shingles, self.shingles_[key])) for key in candidates if key not in exclude]
        matches = [DuplicateMatch(key, round(sim, 6)) for key, sim in scored if sim >= self.threshold]
        matches.sort(key=lambda m: (-m.similarity, self.order_[m.key]))
        return tuple(matches)


def find_near_duplicates(
    keys: Sequence[Hashable],
    prompts: Sequence[str],
    choices: Sequence[Sequence[str]],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    only: Iterable[Hashable] | None = None,
    num_perm: int = 128,
    seed: int = 1,
) -> DuplicateSearchResult:
    """All pairs of similar questions, or those involving a question of ``only``.

    Examples
    --------
    >>> r = find_near_duplicates(["a", "b", "c"], ["He ran.", "he ran!", "A cat."],
    ...                          [["x", "y", "z", "w"], ["w", "z", "y", "x"], ["p", "q", "r", "s"]])
    >>> [(p.a, p.b, p.similarity) for p in r.pairs]
    [('a', 'b', 1.0)]
    """
    index = NearDuplicateIndex(threshold=threshold, num_perm=num_perm, seed=seed).fit(keys, prompts, choices)
    return index.pairs(only)


def precision_recall(found: Iterable[tuple[Hashable, Hashable]], true: Iterable[tuple[Hashable, Hashable]]) -> tuple[float, float]:
    """Precision and recall of found pairs against true pairs (order inside a pair ignored).

    Examples
    --------
    >>> precision_recall([(1, 2), (3, 4)], [(2, 1), (5, 6)])
    (0.5, 0.5)
    """
    found_set = {frozenset(p) for p in found}
    true_set = {frozenset(p) for p in true}
    hits = len(found_set & true_set)
    precision = hits / len(found_set) if found_set else float(np.nan)
    recall = hits / len(true_set) if true_set else float(np.nan)
    return precision, recall
