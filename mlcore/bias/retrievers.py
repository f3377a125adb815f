"""Two passage retrievers with one scikit-learn-style interface (SPEC-bias §4.2).

``fit(passages)`` returns ``self``, ``search(queries, k)`` returns ranked :class:`Hit` tuples:

* :class:`BM25Retriever` (default): Lucene-variant BM25 scored by the ``bm25s`` library over
  :func:`bm25_tokens` (lower-case words of two or more characters, NLTK stop words removed,
  Snowball-stemmed).
* :class:`DenseRetriever`: cosine similarity of mean-pooled, L2-normalised MiniLM embeddings
  (the packaged all-MiniLM-L6-v2 by default), a small stand-in for the paper's DPR.

Ranking is deterministic: larger score first, then lower passage index (SPEC §0 ties).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import TYPE_CHECKING, Protocol

import numpy as np

from mlcore.bias.stopwords import STOP_WORDS
from mlcore.configs import PACKAGED_MINILM, ScorerKind, ScorerSpec, ZeroShotConfig

if TYPE_CHECKING:
    from mlcore.models.inference import ZeroShotEmbeddingScorer

__all__ = ["BM25Config", "BM25Retriever", "DenseRetriever", "Hit", "Retriever", "bm25_tokens", "top_k"]

_WORD = re.compile(r"(?u)\b\w\w+\b")  # bm25s' default token pattern


@functools.lru_cache(maxsize=1)
def _stemmer() -> Callable[[list[str]], list[str]]:
    import Stemmer  # PyStemmer: Snowball in C, ~1M words/s

    stem: Callable[[list[str]], list[str]] = Stemmer.Stemmer("english").stemWords
    return stem


def bm25_tokens(text: str, *, stem: bool = True) -> list[str]:
    """Lower-case words of 2+ characters (bm25s' token pattern), stop words removed, stemmed.

    The stop list is NLTK's (SPEC-bias Appendix A, :data:`mlcore.bias.stopwords.STOP_WORDS`), which
    also drops the question words "who"/"was": otherwise they would match every biography
    ("... who was ...") and fill the top k of an occupation the collection never mentions.
    Stemming (Snowball English, as Lucene's English analyzer stems) lets "nurse" find
    "nurses" and "nursing".

    Examples
    --------
    >>> bm25_tokens("Who was an accountant?"), bm25_tokens("Nurses, nursing", stem=False)
    (['account'], ['nurses', 'nursing'])
    """
    words = [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]
    return _stemmer()(words) if stem and words else words


@dataclass(frozen=True)
class Hit:
    """A retrieved passage: its index in the fitted collection and its score."""

    index: int
    score: float


def top_k(scores: np.ndarray, k: int, *, min_score: float | None = None) -> tuple[Hit, ...]:
    """The ``k`` best entries of a score vector, ties broken by lower index.

    With ``min_score``, entries scoring at or below it are left out.

    Examples
    --------
    >>> [h.index for h in top_k(np.array([0.5, 2.0, 0.5, 0.0]), 3, min_score=0.0)]
    [1, 0, 2]
    """
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    scores = np.asarray(scores, dtype=np.float64)  # (n_passages,)
    candidates = np.flatnonzero(scores > min_score) if min_score is not None else np.arange(scores.size)
    if candidates.size > k:
        # Keep everything tied with the k-th score so the tie-break below sees all of them.
        kth = np.partition(scores[candidates], candidates.size - k)[candidates.size - k]
        candidates = candidates[scores[candidates] >= kth]
    order = np.lexsort((candidates, -scores[candidates]))[:k]
    return tuple(Hit(int(i), float(scores[i])) for i in candidates[order])


class Retriever(Protocol):
    """What :func:`retrieval_probe` needs from a retriever."""

    @property
    def description(self) -> str: ...

    def fit(self, passages: Sequence[str]) -> Retriever: ...

    def search(self, queries: Sequence[str], k: int) -> list[tuple[Hit, ...]]: ...


@dataclass(frozen=True)
class BM25Config:
    """Lucene BM25 parameters (Lucene's and bm25s' defaults) and whether tokens are stemmed."""

    k1: float = 1.5
    b: float = 0.75
    stem: bool = True


class BM25Retriever:
    """BM25 over :func:`bm25_tokens`, indexed and scored by ``bm25s`` (sparse matrices).

    Scores are float64 so that equal-scoring passages tie exactly and the tie-break
    (lower index first) is reproducible.
    """

    def __init__(self, config: BM25Config = BM25Config()) -> None:
        self.config = config

    @property
    def description(self) -> str:
        stem = "Snowball stems" if self.config.stem else "no stemming"
        return f"BM25 (bm25s {metadata.version('bm25s')}, Lucene, k1={self.config.k1}, b={self.config.b}, {stem})"

    def fit(self, passages: Sequence[str]) -> BM25Retriever:
        import bm25s

        if not passages:
            raise ValueError("no passages to index")
        self.index_ = bm25s.BM25(k1=self.config.k1, b=self.config.b, method="lucene", dtype="float64")
        self.index_.index([bm25_tokens(p, stem=self.config.stem) for p in passages], show_progress=False)
        self.n_passages_ = len(passages)
        return self

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every passage for one query, shape ``(n_passages,)``."""
        ids = self.index_.get_tokens_ids(bm25_tokens(query, stem=self.config.stem))
        if not ids:
            return np.zeros(self.n_passages_)
        return np.asarray(self.index_.get_scores_from_ids(ids), dtype=np.float64)

    def search(self, queries: Sequence[str], k: int) -> list[tuple[Hit, ...]]:
        """Top-``k`` passages per query; passages sharing no word with the query are left out."""
        return [top_k(self.scores(q), k, min_score=0.0) for q in queries]


@functools.lru_cache(maxsize=2)
def _embedder(path: str, name: str, max_length: int) -> ZeroShotEmbeddingScorer:
    # Reuses the zero-shot scorer's mean pooling + L2 normalisation; cached per process. Imported
    # here: torch comes with it, and BM25 alone must not pay for it.
    from mlcore.models.inference import ZeroShotEmbeddingScorer

    spec = ScorerSpec(kind=ScorerKind.ZERO_SHOT, path=path, name=name)
    return ZeroShotEmbeddingScorer(spec, ZeroShotConfig(max_length=max_length))


class DenseRetriever:
    """Cosine similarity of mean-pooled sentence embeddings (a BERT-family encoder).

    Parameters
    ----------
    checkpoint : str
        :data:`~mlcore.configs.PACKAGED_MINILM` (default) or a local checkpoint directory.
    name : str
        Shown in results and error messages.
    max_length : int
        Token limit per passage (all-MiniLM-L6-v2 was trained on 256).
    """

    def __init__(self, *, checkpoint: str = PACKAGED_MINILM, name: str = "all-MiniLM-L6-v2",
                 max_length: int = 256) -> None:
        self.checkpoint = checkpoint
        self.name = name
        self.max_length = max_length

    @property
    def description(self) -> str:
        return f"dense {self.name} (mean pooling, cosine, {self.max_length} tokens)"

    def fit(self, passages: Sequence[str]) -> DenseRetriever:
        if not passages:
            raise ValueError("no passages to index")
        self.embedder_ = _embedder(self.checkpoint, self.name, self.max_length)
        self.embeddings_ = self.embedder_.embed(list(passages)).numpy().astype(np.float64)  # (n_passages, hidden)
        return self

    def search(self, queries: Sequence[str], k: int) -> list[tuple[Hit, ...]]:
        """Top-``k`` passages per query by cosine similarity (every passage has a score)."""
        if not queries:
            return []
        query_emb = self.embedder_.embed(list(queries)).numpy().astype(np.float64)  # (n_queries, hidden)
        similarity = query_emb @ self.embeddings_.T  # (n_queries, n_passages)
        return [top_k(row, k) for row in similarity]
