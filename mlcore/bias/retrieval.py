"""Passage retrieval for the retrieval-ambiguity probe (SPEC-bias §4.2-4.3, after Mao et al. 2021).

The retrievers (BM25 and dense) live in :mod:`mlcore.bias.retrievers`.

:func:`retrieval_probe` asks "Who was a(n) <occupation>?" for each occupation, looks up the
gender of the subject of each retrieved passage (its title), counts per gender and runs
:func:`mlcore.bias.ambiguity.retrieval_ambiguity`; with a reader it also runs the §4.3 propagation
test on the reader's best answer over the k passages.

Ranking is deterministic: larger score first, then lower passage index (SPEC §0 ties).
A passage the BM25 query shares no word with is not "retrieved" (score 0): in a small
collection it would only be filler in index order, so a question may get fewer than k hits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from mlcore.bias.ambiguity import (
    WIKIPEDIA_FEMALE_SHARE,
    GoodnessOfFitResult,
    RetrievalAmbiguityResult,
    UnqoverOccupation,
    retrieval_ambiguity,
)
from mlcore.bias.ambiguity_data import dominant_script
from mlcore.bias.gender import GenderLookup, answer_group, best_reader_answer, reader_propagation, subject_groups
from mlcore.bias.retrievers import Hit, Retriever
from mlcore.models.qa import ExtractiveQAModel, QAExample

__all__ = [
    "Passage",
    "PassageReader",
    "ProbeQuestion",
    "QAModelReader",
    "RetrievalProbeResult",
    "ScriptComparison",
    "compare_scripts",
    "retrieval_probe",
]

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
    """The writing systems of the occupation list and of the passages.

    Attributes
    ----------
    occupations, passages : str
        The script most of their letters belong to, as :func:`~mlcore.bias.ambiguity_data.dominant_script`
        names it ("Latin", "Arabic", ...; "" when there are no letters); passages are sampled.
    """

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
    >>> from mlcore.bias.retrievers import BM25Retriever
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
