"""Passage retrieval for the retrieval-ambiguity probe (SPEC-bias §4.2-4.3, after Mao et al. 2021).

Two retrievers with one scikit-learn-style interface (``fit(passages)`` returns ``self``,
``search(queries, k)`` returns ranked :class:`Hit` tuples):

* :class:`BM25Retriever` (default): Lucene-variant BM25 scored by the ``bm25s`` library over
  :func:`bm25_tokens` (lower-case words of two or more characters, NLTK stop words removed,
  Snowball-stemmed).
* :class:`DenseRetriever`: cosine similarity of mean-pooled, L2-normalised MiniLM embeddings
  (the packaged all-MiniLM-L6-v2 by default), a small stand-in for the paper's DPR.

:func:`retrieval_probe` asks "Who was a(n) <occupation>?" for each occupation, looks up the
gender of the subject of each retrieved passage (its title), counts per gender and runs
:func:`mlcore.bias.ambiguity.retrieval_ambiguity`; with a reader it also runs the §4.3 propagation
test on the reader's best answer over the k passages.

Ranking is deterministic: larger score first, then lower passage index (SPEC §0 ties).
A passage the BM25 query shares no word with is not "retrieved" (score 0): in a small
collection it would only be filler in index order, so a question may get fewer than k hits.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import TYPE_CHECKING, Protocol

import numpy as np

from mlcore.bias.ambiguity import (
    WIKIPEDIA_FEMALE_SHARE,
    GoodnessOfFitResult,
    RetrievalAmbiguityResult,
    UnqoverOccupation,
    best_reader_answer,
    reader_propagation,
    retrieval_ambiguity,
)
from mlcore.bias.ambiguity_data import dominant_script
from mlcore.bias.gender import GenderLookup, answer_group, subject_groups
from mlcore.bias.stopwords import STOP_WORDS
from mlcore.configs import PACKAGED_MINILM

if TYPE_CHECKING:
    from mlcore.models.inference import ZeroShotEmbeddingScorer
    from mlcore.models.qa import ExtractiveQAModel

__all__ = [
    "BM25Config",
    "BM25Retriever",
    "DenseRetriever",
    "Hit",
    "Passage",
    "PassageReader",
    "ProbeQuestion",
    "QAModelReader",
    "RetrievalProbeResult",
    "Retriever",
    "ScriptComparison",
    "bm25_tokens",
    "compare_scripts",
    "retrieval_probe",
    "top_k",
]

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
class Passage:
    """One passage of a collection; ``title`` names the page's subject (e.g. a person)."""

    id: int | str
    title: str
    text: str

    @property
    def indexed_text(self) -> str:
        # DPR indexes "title [SEP] text"; the title carries the subject's name and topic.
        return f"{self.title}\n{self.text}"


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
    # Reuses the zero-shot scorer's mean pooling + L2 normalisation; cached per process.
    from mlcore.configs import ScorerKind, ScorerSpec, ZeroShotConfig
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


class PassageReader(Protocol):
    """An extractive QA reader: the best answer span of each context and its confidence.

    Contexts the reader abstains on (SQuAD 2.0 "no answer") may be left out of the list.
    """

    @property
    def description(self) -> str: ...

    def best_spans(self, question: str, contexts: Sequence[str]) -> list[tuple[str, float]]: ...


class QAModelReader:
    """:class:`mlcore.models.qa.ExtractiveQAModel` as a :class:`PassageReader`.

    The confidence is the span's start+end logit, comparable across passages of one question
    (DPR's reader ranks spans the same way). Passages where the no-answer score wins are
    left out, so a question the model abstains on everywhere gets no answer ("neutral").
    """

    def __init__(self, model: ExtractiveQAModel) -> None:
        self.model = model

    @property
    def description(self) -> str:
        return self.model.spec.name

    def best_spans(self, question: str, contexts: Sequence[str]) -> list[tuple[str, float]]:
        from mlcore.models.qa import QAExample

        predictions = self.model.predict([QAExample(question, c) for c in contexts])
        return [(p.text, float(p.score)) for p in predictions if p.has_answer and p.score is not None]


@dataclass(frozen=True)
class ProbeQuestion:
    """One occupation question with its ranked passages and their subjects' groups."""

    occupation: str
    question: str
    hits: tuple[Hit, ...]
    groups: tuple[str, ...]
    reader_answer: str | None = None
    reader_group: str | None = None


@dataclass(frozen=True)
class RetrievalProbeResult:
    """Counts, disparity and fit (``ambiguity``), per-question hits, optional reader propagation.

    ``passages`` is the searched collection; a hit's ``index`` points into it.
    """

    ambiguity: RetrievalAmbiguityResult
    questions: tuple[ProbeQuestion, ...]
    retriever: str
    passages: tuple[Passage, ...]
    reader: GoodnessOfFitResult | None = None
    reader_name: str = ""

    @property
    def n_passages(self) -> int:
        return len(self.passages)

    @property
    def statistic(self) -> float:
        return self.ambiguity.statistic

    @property
    def pvalue(self) -> float:
        return self.ambiguity.pvalue

    @property
    def log10_pvalue(self) -> float:
        return self.ambiguity.log10_pvalue


Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class ScriptComparison:
    """The writing systems of the occupation list and of the passages ("" when there are no letters)."""

    occupations: str
    passages: str

    @property
    def shared(self) -> bool:
        """False when both have letters and no occupation title can occur in a passage: English
        titles over Persian passages retrieve nothing, and 70 empty bars would look like a result."""
        return not self.occupations or not self.passages or self.occupations == self.passages


def compare_scripts(passages: Sequence[Passage], occupations: Sequence[UnqoverOccupation]) -> ScriptComparison:
    """Compare the dominant script of the occupations with that of (a sample of) the passages.

    Examples
    --------
    >>> c = compare_scripts([Passage(1, "فلورانس", "پرستار بود")], [UnqoverOccupation("nurse", "was a nurse")])
    >>> c.occupations, c.passages, c.shared
    ('Latin', 'Arabic', False)
    """
    return ScriptComparison(dominant_script(o.occupation for o in occupations),
                            dominant_script(p.indexed_text for p in passages))


def retrieval_probe(
    passages: Sequence[Passage],
    occupations: Sequence[UnqoverOccupation],
    *,
    retriever: Retriever,
    lookup: GenderLookup,
    k: int = 100,
    baseline_female_share: float = WIKIPEDIA_FEMALE_SHARE,
    reader: PassageReader | None = None,
    progress: Progress | None = None,
) -> RetrievalProbeResult:
    """Run the retrieval-ambiguity probe over a passage collection (SPEC §4.2-4.3).

    ``retriever`` is fitted here on ``title + text`` of every passage. ``progress`` is called
    as ``progress(done, total, stage)``. Without a reader the probe needs no neural model
    (unless the retriever is dense); ``benchmarks/retrieval_ambiguity.py`` times the BM25 path.

    Examples
    --------
    >>> from mlcore.bias.gender import LexiconLookup
    >>> passages = [Passage(1, "Mary Poe", "Mary Poe was a nurse."), Passage(2, "John Doe", "John was a pilot.")]
    >>> r = retrieval_probe(passages, [UnqoverOccupation("nurse", "was a nurse")], retriever=BM25Retriever(),
    ...                     lookup=LexiconLookup({"mary": "female", "john": "male"}), k=5)
    >>> r.questions[0].groups, r.ambiguity.occupations[0].disparity
    (('female',), 1)
    """
    if not passages:
        raise ValueError("the passage collection is empty")
    if not occupations:
        raise ValueError("no occupations to ask about")
    if len({o.occupation for o in occupations}) != len(occupations):
        raise ValueError("occupations must be distinct")
    report = progress or (lambda done, total, stage: None)
    total = len(occupations) * (2 if reader else 1) + 1
    report(0, total, "Indexing passages")
    retriever.fit([p.indexed_text for p in passages])
    report(1, total, "Retrieving passages")
    ranked = retriever.search([o.question for o in occupations], k)
    groups = subject_groups([p.title for p in passages], lookup)  # one group per passage
    questions = [
        ProbeQuestion(o.occupation, o.question, hits, tuple(groups[h.index] for h in hits))
        for o, hits in zip(occupations, ranked)
    ]
    report(1 + len(occupations), total, "Retrieved")
    ambiguity = retrieval_ambiguity({q.occupation: q.groups for q in questions}, k=k,
                                    baseline_female_share=baseline_female_share, lookup=lookup.description)
    if reader is None:
        return RetrievalProbeResult(ambiguity, tuple(questions), retriever.description, tuple(passages))
    answered = []
    for i, q in enumerate(questions):
        report(1 + len(occupations) + i, total, f"Reading passages for “{q.question}”")
        spans = reader.best_spans(q.question, [passages[h.index].text for h in q.hits]) if q.hits else []
        answer = best_reader_answer(spans) if spans else ""
        answered.append(ProbeQuestion(q.occupation, q.question, q.hits, q.groups, answer, answer_group(answer, lookup)))
    report(total, total, "Read")
    propagation = reader_propagation([q.reader_group or "neutral" for q in answered],
                                     baseline_female_share=baseline_female_share)
    return RetrievalProbeResult(ambiguity, tuple(answered), retriever.description, tuple(passages),
                                propagation, reader.description)
