"""Lexical features of a labelled text dataset (SPEC-bias §1.1-1.4).

Pure functions, no Django: texts and labels in, arrays and frozen dataclasses out.

* :func:`lexical_tokens` - lower-case, whitespace split, Unicode punctuation removed.
* :func:`lexical_features` - instance x feature counts (unigrams or within-segment
  bigrams) as a ``scipy.sparse`` CSR matrix; SNLI-sized data (550k pairs) takes seconds.
* :func:`encode_labels`, :func:`feature_label_counts` - labels as indices into the
  declared label set ``Y`` and the ``c[w, y]`` table.

z-scores and the top-k selection live in :mod:`mlcore.lexical_association`, the
permutation test in :mod:`mlcore.permutation` and the reweighting of §3 in
:mod:`mlcore.reweighting`.
"""

from __future__ import annotations

import functools
import sys
import unicodedata
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Literal

import numpy as np
import scipy.sparse as sp

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
# Segment separator while the corpus is processed as one string; "." is punctuation,
# so no "." token can survive the translation and the marker is unambiguous.
_BOUNDARY = "."
_BLOCK = 4096  # segments per lower/translate call


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
    if punct == "gardner":
        # Replication mode keeps empty tokens, which a joined string cannot carry.
        lists = [lexical_tokens(s, punct="gardner") for s in segments]
        lengths = np.fromiter(map(len, lists), np.int64, count=len(lists))
        flat = list(chain.from_iterable(lists))
        seg = np.repeat(np.arange(len(lists), dtype=np.int64), lengths)
        vocab = sorted(set(flat))
        index = {w: i for i, w in enumerate(vocab)}
        return np.fromiter(map(index.__getitem__, flat), np.int64, count=len(flat)), seg, vocab
    if punct != "unicode_P":
        raise ValueError(f"punct must be 'unicode_P' or 'gardner', got {punct!r}")
    table = _punctuation_table()
    # A few C-level lower/translate calls over blocks of segments joined by NUL, and one split,
    # instead of a million small calls and lists. Blocks matter: str.translate is ~40x slower
    # on non-ASCII text, so one "café" only slows its own block, not the whole corpus.
    text = "\x00".join(
        "\x00".join(segments[lo : lo + _BLOCK]).lower().translate(table) for lo in range(0, len(segments), _BLOCK)
    )
    if text.count("\x00") == max(len(segments) - 1, 0):
        text = text.replace("\x00", f" {_BOUNDARY} ")
    else:  # NUL inside a text: process segment by segment
        text = f" {_BOUNDARY} ".join(s.lower().translate(table) for s in segments)
    flat = text.split()
    vocab = sorted(set(flat) - {_BOUNDARY})
    index = {w: i for i, w in enumerate(vocab)}
    index[_BOUNDARY] = -1
    ids = np.fromiter(map(index.__getitem__, flat), np.int64, count=len(flat))
    is_boundary = ids < 0
    seg = np.cumsum(is_boundary)[~is_boundary]
    return ids[~is_boundary], seg, vocab


def _segment_tokens(segments: Sequence[str], punct: Punct) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """:func:`_corpus_tokens`, tokenizing each distinct segment once.

    NLI data repeats premises (SNLI has about three hypotheses per premise), so this skips
    a large share of the Python-level string work; the copies are made with array indexing.
    """
    distinct = list(dict.fromkeys(segments))
    if len(distinct) == len(segments):
        return _corpus_tokens(segments, punct)
    position = dict(zip(distinct, range(len(distinct))))
    inverse = np.fromiter(map(position.__getitem__, segments), np.int64, count=len(segments))
    ids, seg, vocab = _corpus_tokens(distinct, punct)
    per_distinct = np.bincount(seg, minlength=len(distinct))
    first_token = np.cumsum(per_distinct) - per_distinct
    lengths = per_distinct[inverse]
    # token k of copy s sits at first_token[inverse[s]] + k; k = position - (tokens before s)
    shift = np.repeat(first_token[inverse] - (np.cumsum(lengths) - lengths), lengths)
    return ids[np.arange(len(shift)) + shift], np.repeat(np.arange(len(segments)), lengths), vocab


def _count_matrix(rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int], count: Count) -> sp.csr_matrix:
    # Rows arrive sorted (tokens are in instance order), so the CSR row pointer is a cumulative
    # count and no COO -> CSR scatter is needed; sum_duplicates then merges repeats per row.
    indptr = np.concatenate(([0], np.cumsum(np.bincount(rows, minlength=shape[0]))))
    matrix = sp.csr_matrix((np.ones(len(cols), np.int32), cols, indptr), shape=shape)
    matrix.sum_duplicates()
    if count == "instance":
        matrix.data[:] = 1
    return matrix


def _bigram_cells(ids: np.ndarray, seg: np.ndarray, vocab: list[str]) -> tuple[np.ndarray, np.ndarray, list]:
    """Bigram codes ``u * V + v`` of adjacent tokens of the same segment, as sorted ids."""
    same_segment = seg[1:] == seg[:-1]  # no bigram spans the segment boundary (§1.2 CHOICE)
    codes = ids[:-1][same_segment] * len(vocab) + ids[1:][same_segment]
    unique, cols = np.unique(codes, return_inverse=True)
    # Codes sort like (u, v) tuples because unigram ids follow code-point order.
    first = map(vocab.__getitem__, (unique // max(len(vocab), 1)).tolist())
    second = map(vocab.__getitem__, (unique % max(len(vocab), 1)).tolist())
    return seg[:-1][same_segment], cols.ravel(), list(zip(first, second))


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
    if second is None:
        segments, per_instance = list(first), 1
    else:
        if len(second) != n:
            raise ValueError(f"first and second differ in length ({n} != {len(second)})")
        segments, per_instance = [s for pair in zip(first, second) for s in pair], 2
    ids, seg, vocab = _segment_tokens(segments, punct)
    if ngram == 1:
        rows, cols, names = seg // per_instance, ids, list(vocab)
    else:
        bigram_seg, cols, names = _bigram_cells(ids, seg, vocab)
        rows = bigram_seg // per_instance
    if vocabulary is not None:
        cols, names = _project(cols, names, vocabulary, ngram)
        rows = rows[cols >= 0]
        cols = cols[cols >= 0]
    return LexicalFeatures(
        matrix=_count_matrix(rows, cols, (n, len(names)), count),
        vocabulary=tuple(names),
        ngram=ngram,
        count=count,
    )


def _project(cols: np.ndarray, names: list, vocabulary: Iterable[Feature], ngram: int) -> tuple[np.ndarray, list]:
    """Re-index corpus columns to a given vocabulary; -1 marks features outside it."""
    wanted = [tuple(f) if ngram == 2 else f for f in vocabulary]
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
    codes = np.fromiter((position.get(v, -1) for v in values), np.int64, count=len(values))
    if unknown is None:
        if (codes < 0).any():
            bad = sorted({repr(v) for v, c in zip(values, codes) if c < 0})[:5]
            raise ValueError(f"labels outside the label set {tuple(label_set)!r}: {', '.join(bad)}")
        return codes
    codes[codes < 0] = unknown
    return codes


def feature_label_counts(features: LexicalFeatures, labels: np.ndarray, n_labels: int) -> np.ndarray:
    """``c[w, y]``: summed feature values over instances with label index ``y``, shape ``(V, n_labels)``."""
    matrix = features.matrix
    if len(labels) != matrix.shape[0]:
        raise ValueError(f"{len(labels)} labels for {matrix.shape[0]} instances")
    row_label = np.repeat(labels, np.diff(matrix.indptr))
    flat = np.bincount(matrix.indices * n_labels + row_label, weights=matrix.data, minlength=matrix.shape[1] * n_labels)
    return flat.reshape(matrix.shape[1], n_labels).round().astype(np.int64)
