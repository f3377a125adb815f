"""Lexical features of a labelled text dataset (SPEC-bias §1.1-1.4).

Pure functions, no Django: texts and labels in, arrays and frozen dataclasses out.

* :func:`lexical_tokens` - lower-case, whitespace split, Unicode punctuation removed.
* :func:`lexical_features` - instance x feature counts (unigrams or within-segment
  bigrams) as a ``scipy.sparse`` CSR matrix; SNLI-sized data (550k pairs) takes seconds.
* :func:`encode_labels`, :func:`feature_label_counts` - labels as indices into the
  declared label set ``Y`` and the ``c[w, y]`` table.

z-scores and the top-k selection live in :mod:`mlcore.bias.lexical_association`, the
permutation test in :mod:`mlcore.bias.permutation` and the reweighting of §3 in
:mod:`mlcore.bias.reweighting`.
"""

from __future__ import annotations

import functools
import sys
import unicodedata
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from typing import Literal

import numpy as np
import scipy.sparse as sp

from mlcore.bias.lexical_rows import feature_label_sums, instance_matrix
from mlcore.bias.lexical_tokenizer import corpus_token_ids, factorize_u64

__all__ = [
    "Feature",
    "LexicalFeatures",
    "check_label_set",
    "encode_labels",
    "feature_label_counts",
    "lexical_features",
    "lexical_tokens",
]

#: A unigram is a token; a bigram is a pair of adjacent tokens of one segment.
Feature = str | tuple[str, str]
Punct = Literal["unicode_P", "gardner"]
Count = Literal["instance", "token"]

# The [GZ] script's character list (SPEC §1.1 compat note), for replication only.
_GARDNER_TABLE = str.maketrans("", "", "!.()[]{};:\\,?'\"")


@functools.lru_cache(maxsize=1)
def _punctuation_table() -> dict[int, None]:
    # Built once per process (~0.1 s): every code point of general category P*
    # in this Python's Unicode database.
    return {cp: None for cp in range(sys.maxunicode + 1) if unicodedata.category(chr(cp)).startswith("P")}


def lexical_tokens(text: str, *, punct: Punct = "unicode_P") -> list[str]:
    """Tokenize one text as SPEC-bias §1.1 prescribes.

    Parameters
    ----------
    text : str
        Raw or pre-tokenized text.
    punct : {"unicode_P", "gardner"}
        ``"unicode_P"`` (default): lower-case, split on Unicode whitespace, delete
        every character of category ``P*`` inside each token, drop empty tokens.
        ``"gardner"``: delete only ``! . ( ) [ ] { } ; : \\ , ? ' "`` and keep
        empty tokens, as the public competency-problems script does.

    Returns
    -------
    list of str

    Examples
    --------
    >>> lexical_tokens('Nobody\\'s home -- the T-shirt, "red" & blue!')
    ['nobodys', 'home', 'the', 'tshirt', 'red', 'blue']
    >>> lexical_tokens("the T-shirt --", punct="gardner")
    ['the', 't-shirt', '--']
    """
    if punct == "unicode_P":
        # Deleting before splitting is equivalent: no P* character is whitespace.
        return text.lower().translate(_punctuation_table()).split()
    if punct == "gardner":
        return [token.translate(_GARDNER_TABLE) for token in text.lower().split()]
    raise ValueError(f"punct must be 'unicode_P' or 'gardner', got {punct!r}")


@dataclass(frozen=True)
class LexicalFeatures:
    """Binary (instance counting) or count (token counting) features of a dataset.

    ``matrix[i, j]`` is 1 if instance ``i`` contains ``vocabulary[j]`` (``count="instance"``)
    or its number of occurrences (``count="token"``). Unless a vocabulary was given,
    ``vocabulary`` is sorted in code-point order (bigrams as tuples).
    """

    matrix: sp.csr_matrix  # (n_instances, n_features), int32
    vocabulary: tuple[Feature, ...]
    ngram: int
    count: str

    @property
    def n_instances(self) -> int:
        """Number of instances (rows)."""
        return int(self.matrix.shape[0])

    @functools.cached_property
    def column(self) -> dict[Feature, int]:
        """Map feature -> column index."""
        return {feature: j for j, feature in enumerate(self.vocabulary)}

    @property
    def n_w(self) -> np.ndarray:
        """Column sums: instances (or occurrences) per feature, shape ``(n_features,)``."""
        return np.asarray(self.matrix.sum(axis=0)).ravel().astype(np.int64)


def _corpus_tokens(segments: Sequence[str], punct: Punct) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Token ids into a sorted vocabulary, the segment index of every token, and the vocabulary."""
    if punct == "unicode_P":
        fast = corpus_token_ids(segments, _punctuation_table)
        if fast is not None:
            return fast
        # A NUL inside a text is part of a token: tokenize segment by segment below.
    elif punct != "gardner":
        raise ValueError(f"punct must be 'unicode_P' or 'gardner', got {punct!r}")
    # Replication mode keeps empty tokens, which the byte buffer cannot carry.
    lists = [lexical_tokens(s, punct=punct) for s in segments]
    lengths = np.fromiter(map(len, lists), np.int64, count=len(lists))
    flat = list(chain.from_iterable(lists))
    seg = np.repeat(np.arange(len(lists), dtype=np.int64), lengths)
    vocab = sorted(set(flat))
    index = {w: i for i, w in enumerate(vocab)}
    return np.fromiter(map(index.__getitem__, flat), np.int64, count=len(flat)), seg, vocab


def _runs(texts: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """Texts with consecutive repeats collapsed, and the run of every original text.

    NLI data lists a premise once per hypothesis (SNLI: about three in a row), so each distinct
    run is tokenized once and copied by row indexing; comparing neighbours costs ~30 ms for
    SNLI, where a dict of all texts would cost ten times more.
    """
    values = np.empty(len(texts), dtype=object)
    values[:] = list(texts)
    new = np.ones(len(values), dtype=bool)
    new[1:] = values[1:] != values[:-1]
    return values[new].tolist(), np.cumsum(new) - 1


def _bigram_cells(ids: np.ndarray, seg: np.ndarray, vocab: list[str]) -> tuple[np.ndarray, np.ndarray, list[tuple[str, str]]]:
    """Bigram codes ``u * V + v`` of adjacent tokens of the same segment, as sorted ids."""
    same_segment = seg[1:] == seg[:-1]  # no bigram spans the segment boundary (§1.2 CHOICE)
    codes = ids[:-1][same_segment] * len(vocab) + ids[1:][same_segment]
    unique, cols = factorize_u64(codes.astype(np.uint64))
    unique = unique.astype(np.int64)
    # Codes sort like (u, v) tuples because unigram ids follow code-point order.
    first = map(vocab.__getitem__, (unique // max(len(vocab), 1)).tolist())
    second = map(vocab.__getitem__, (unique % max(len(vocab), 1)).tolist())
    return seg[:-1][same_segment], cols, list(zip(first, second))


def lexical_features(
    first: Sequence[str],
    second: Sequence[str] | None = None,
    *,
    ngram: Literal[1, 2] = 1,
    count: Count = "instance",
    punct: Punct = "unicode_P",
    vocabulary: Iterable[Feature] | None = None,
) -> LexicalFeatures:
    """Unigram or bigram features of single texts or text pairs (SPEC-bias §1.2).

    Parameters
    ----------
    first : sequence of str
        First segment of every instance (premise, question, ...).
    second : sequence of str, optional
        Second segment (hypothesis, sentence, ...); an instance is the union of both.
    ngram : {1, 2}
        Unigrams, or bigrams of adjacent tokens inside one segment (never across).
    count : {"instance", "token"}
        ``"instance"`` (default): 0/1 presence. ``"token"``: every occurrence counts.
    punct : {"unicode_P", "gardner"}
        Tokenizer variant, see :func:`lexical_tokens`.
    vocabulary : iterable of features, optional
        Fixed columns in the given order (e.g. the selected set ``S`` on an
        evaluation split); tokens outside it are ignored.

    Returns
    -------
    LexicalFeatures

    Examples
    --------
    >>> f = lexical_features(["A dog, a cat."], ["The dog sleeps."])
    >>> f.vocabulary
    ('a', 'cat', 'dog', 'sleeps', 'the')
    >>> f.matrix.toarray().tolist()
    [[1, 1, 1, 1, 1]]
    >>> lexical_features(["A dog, a cat."], ["The dog sleeps."], ngram=2).vocabulary
    (('a', 'cat'), ('a', 'dog'), ('dog', 'a'), ('dog', 'sleeps'), ('the', 'dog'))
    """
    if ngram not in (1, 2):
        raise ValueError(f"ngram must be 1 or 2, got {ngram!r}")
    if count not in ("instance", "token"):
        raise ValueError(f"count must be 'instance' or 'token', got {count!r}")
    n = len(first)
    slots = [first] if second is None else [first, second]
    if second is not None and len(second) != n:
        raise ValueError(f"first and second differ in length ({n} != {len(second)})")
    distinct, runs, offset = [], [], 0
    for texts in slots:
        unique, run = _runs(texts)
        distinct.extend(unique)
        runs.append(run + offset)
        offset += len(unique)
    ids, seg, vocab = _corpus_tokens(distinct, punct)
    names: list[Feature]
    if ngram == 1:
        rows, cols, names = seg, ids, list(vocab)
    else:
        rows, cols, bigram_names = _bigram_cells(ids, seg, vocab)
        names = list(bigram_names)
    if vocabulary is not None:
        cols, names = _project(cols, names, vocabulary, ngram)
        rows = rows[cols >= 0]
        cols = cols[cols >= 0]
    # Each instance's row from its segments' tokens (a word in both segments of an
    # instance-counted pair is still one).
    matrix = instance_matrix(rows, cols, len(distinct), runs, len(names), binary=count == "instance")
    return LexicalFeatures(matrix=matrix, vocabulary=tuple(names), ngram=ngram, count=count)


def _project(cols: np.ndarray, names: list[Feature], vocabulary: Iterable[Feature], ngram: int) -> tuple[np.ndarray, list[Feature]]:
    """Re-index corpus columns to a given vocabulary; -1 marks features outside it."""
    wanted: list[Feature] = [(f[0], f[1]) if ngram == 2 else f for f in vocabulary]
    if len(set(wanted)) != len(wanted):
        raise ValueError("vocabulary contains duplicates")
    position = {f: j for j, f in enumerate(wanted)}
    corpus_to_wanted = np.fromiter((position.get(f, -1) for f in names), np.int64, count=len(names))
    return (corpus_to_wanted[cols] if len(cols) else cols), wanted


def check_label_set(label_set: Iterable[Hashable]) -> tuple[Hashable, ...]:
    """Validate the declared, ordered label set ``Y`` (SPEC §0): at least 2 distinct labels."""
    labels = tuple(label_set)
    if len(labels) < 2:
        raise ValueError(f"the label set needs at least 2 labels, got {labels!r}")
    if len(set(labels)) != len(labels):
        raise ValueError(f"the label set has duplicates: {labels!r}")
    return labels


def encode_labels(values: Iterable[Hashable], label_set: Sequence[Hashable], *, unknown: int | None = None) -> np.ndarray:
    """Positions of ``values`` in ``label_set``.

    A value outside the set raises ``ValueError``, unless ``unknown`` is given, in which
    case it is encoded as ``unknown`` (predictions outside ``Y`` are simply wrong).

    Examples
    --------
    >>> encode_labels(["C", "E", "C"], ("E", "N", "C")).tolist()
    [2, 0, 2]
    >>> encode_labels(["E", "maybe"], ("E", "N", "C"), unknown=-1).tolist()
    [0, -1]
    """
    if not isinstance(values, (Sequence, np.ndarray)):
        values = list(values)  # read twice below
    position = {y: j for j, y in enumerate(label_set)}
    # map() with two iterables calls position.get(v, -1) from C: no generator frame per label.
    codes = np.fromiter(map(position.get, values, repeat(-1)), np.int64, count=len(values))
    if unknown is None:
        if (codes < 0).any():
            bad = sorted({repr(v) for v, c in zip(values, codes) if c < 0})[:5]
            raise ValueError(f"labels outside the label set {tuple(label_set)!r}: {', '.join(bad)}")
        return codes
    codes[codes < 0] = unknown
    return codes


def feature_label_counts(features: LexicalFeatures, labels: np.ndarray, n_labels: int) -> np.ndarray:
    """``c[w, y]``: summed feature values over instances with label index ``y``, shape ``(V, n_labels)``."""
    return feature_label_sums(features.matrix, np.asarray(labels), n_labels)
