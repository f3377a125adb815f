"""Split assignment and author pseudonyms of a dataset release (pure, no Django).

* ``author_split``: whole authors go to train / validation / test, so no author is in two
  splits (the model cannot score by recognising an author's style, cf. CODAH §4 and
  SPEC-bias §5.6); authors are dealt largest first to the split furthest below its target share.
* ``fold_split``: the folds a cross-validation scoring run stored (``fold_0`` ... ``fold_{k-1}``).
* ``article_split``: a span project's article splits (already author-independent of the model).
* ``pseudonymise``: ``author-01`` ... numbered in the order of a keyed hash, so the numbering
  reveals neither ids nor sign-up order, and is stable for the same authors and key.
"""
from __future__ import annotations

import hashlib
import hmac
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

SPLIT_NAMES = ("train", "validation", "test")
DEFAULT_RATIOS = (0.8, 0.1, 0.1)


@dataclass(frozen=True)
class SplitAssignment:
    """``splits[i]`` is the split of ``ids[i]``; ``names`` lists the non-empty splits in order."""

    ids: tuple[Hashable, ...]
    splits: tuple[str, ...]
    method: str

    @property
    def names(self) -> tuple[str, ...]:
        present = set(self.splits)
        ordered = [name for name in SPLIT_NAMES if name in present]
        return tuple(ordered + sorted(present - set(SPLIT_NAMES), key=_natural))

    def counts(self) -> dict[str, int]:
        return {name: self.splits.count(name) for name in self.names}

    def split_of(self) -> dict[Hashable, str]:
        return dict(zip(self.ids, self.splits))


def _natural(name: str) -> tuple[str, int]:
    head, _, tail = name.rpartition("_")
    return (head, int(tail)) if tail.isdigit() else (name, -1)


def _check_ratios(ratios: Sequence[float]) -> tuple[float, ...]:
    values = tuple(float(r) for r in ratios)
    if len(values) != len(SPLIT_NAMES) or any(r < 0 for r in values) or abs(sum(values) - 1.0) > 1e-6:
        raise ValueError(f"ratios must be {len(SPLIT_NAMES)} non-negative numbers that add up to 1, got {ratios}")
    return values


def author_split(ids: Sequence[Hashable], authors: Sequence[Hashable], *,
                 ratios: Sequence[float] = DEFAULT_RATIOS, seed: int = 0) -> SplitAssignment:
    """Train / validation / test by author: every item of an author lands in the same split.

    Authors are shuffled with ``seed`` (ties among equal sizes), then taken largest first, each
    to the split with the largest deficit ``ratio * n - size`` (ties: the earlier split), so with
    a single author everything is in ``train``.

    Examples
    --------
    >>> a = author_split(range(6), ["x", "x", "x", "y", "y", "z"], ratios=(0.5, 0.25, 0.25))
    >>> a.splits
    ('train', 'train', 'train', 'validation', 'validation', 'test')
    """
    if len(ids) != len(authors):
        raise ValueError(f"ids and authors differ in length: {len(ids)} and {len(authors)}")
    if len(set(ids)) != len(ids):
        raise ValueError("ids must be unique")
    shares = _check_ratios(ratios)
    groups: dict[Hashable, list[int]] = defaultdict(list)
    for index, author in enumerate(authors):
        groups[author].append(index)
    order = list(groups)
    np.random.default_rng(seed).shuffle(order)  # shuffles in place; ranks equal-size authors
    rank = {author: i for i, author in enumerate(order)}
    sizes = [0] * len(SPLIT_NAMES)
    splits = [""] * len(ids)
    n = len(ids)
    for author in sorted(groups, key=lambda a: (-len(groups[a]), rank[a])):
        deficits = [share * n - size for share, size in zip(shares, sizes)]
        target = deficits.index(max(deficits))
        for index in groups[author]:
            splits[index] = SPLIT_NAMES[target]
        sizes[target] += len(groups[author])
    return SplitAssignment(tuple(ids), tuple(splits), "author")


def fold_split(ids: Sequence[Hashable], folds: Mapping[Hashable, int]) -> SplitAssignment:
    """One split per stored cross-validation fold, named ``fold_0`` ...; every id needs a fold.

    Examples
    --------
    >>> fold_split([3, 4], {3: 1, 4: 0}).splits
    ('fold_1', 'fold_0')
    """
    missing = [i for i in ids if i not in folds]
    if missing:
        raise KeyError(f"{len(missing)} item(s) have no fold, e.g. {missing[:5]}")
    return SplitAssignment(tuple(ids), tuple(f"fold_{int(folds[i])}" for i in ids), "folds")


def article_split(ids: Sequence[Hashable], splits: Sequence[str]) -> SplitAssignment:
    """The splits stored with a span project's articles."""
    if len(ids) != len(splits):
        raise ValueError(f"ids and splits differ in length: {len(ids)} and {len(splits)}")
    return SplitAssignment(tuple(ids), tuple(splits), "article")


@dataclass(frozen=True)
class Pseudonyms:
    """``mapping[author] -> "author-07"``; ``width`` digits, enough for every author."""

    mapping: Mapping[Hashable, str]

    def __call__(self, author: Hashable) -> str:
        return self.mapping[author]


def pseudonymise(authors: Sequence[Hashable], *, key: bytes) -> Pseudonyms:
    """Number the distinct authors in the order of ``HMAC-SHA256(key, str(author))``.

    Examples
    --------
    >>> p = pseudonymise([5, 9, 5], key=b"k")
    >>> sorted(p.mapping.values())
    ['author-1', 'author-2']
    """
    distinct = list(dict.fromkeys(authors))
    width = len(str(len(distinct)))
    digest = {a: hmac.new(key, str(a).encode(), hashlib.sha256).hexdigest() for a in distinct}
    ordered = sorted(distinct, key=lambda a: digest[a])
    return Pseudonyms({a: f"author-{i:0{width}d}" for i, a in enumerate(ordered, start=1)})
