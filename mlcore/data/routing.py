"""Which paragraph a worker gets next (issue 31 §4): PageRank order, model uncertainty, or disagreement.

Pure functions, no Django: the caller passes the paragraphs this worker may still get (a selector
has already left out those they had, or that are full) and hands the first one it can lock to the
worker, as ``session_start_next`` does with today's PageRank queue.

* ``"pagerank"`` - the given order (``rank``: the article's PageRank rank, then paragraph order).
* ``"uncertainty"`` - the in-the-loop QA model's uncertainty about the paragraph, highest first
  (scores from :func:`span_entropy` or :func:`no_answer_uncertainty`, averaged by the caller).
* ``"disagreement"`` - paragraphs with questions whose second-pass answers do not yet have ``k``
  that agree (:func:`agreeing_answers`) first, most such questions first.

Ties always fall back to ``rank``, so every strategy is deterministic.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from mlcore.stats.squad_metrics import Normalizer, resolve_normalizer

__all__ = [
    "ParagraphCandidate",
    "Routing",
    "Strategy",
    "agreeing_answers",
    "needs_more_answers",
    "next_paragraph",
    "no_answer_uncertainty",
    "route",
    "span_entropy",
]

Strategy = Literal["pagerank", "uncertainty", "disagreement"]
STRATEGIES: tuple[Strategy, ...] = ("pagerank", "uncertainty", "disagreement")


def span_entropy(start_probs: ArrayLike, end_probs: ArrayLike) -> float:
    """Uncertainty of a span prediction in [0, 1]: mean normalised entropy of the start and end distributions.

    Each distribution's Shannon entropy is divided by ``log(len)``, its value for a uniform
    distribution, so paragraphs of different lengths compare (0: one certain position; 1: uniform).

    Examples
    --------
    >>> span_entropy([1, 0, 0, 0], [0.25, 0.25, 0.25, 0.25])
    0.5
    """
    values = []
    for probs in (start_probs, end_probs):
        p = np.asarray(probs, dtype=np.float64)
        if p.ndim != 1 or p.size < 2 or (p < 0).any() or not math.isclose(float(p.sum()), 1.0, abs_tol=1e-6):
            raise ValueError("start and end probabilities must be 1-d distributions over at least 2 positions")
        nonzero = p[p > 0]
        values.append(float(-np.sum(nonzero * np.log(nonzero))) / math.log(p.size))
    return float(np.mean(values))


def no_answer_uncertainty(probability: float) -> float:
    """Uncertainty of the answerable/unanswerable call in [0, 1]: ``1 - 2 |p - 0.5|`` (1 at p = 0.5).

    Examples
    --------
    >>> no_answer_uncertainty(0.5), no_answer_uncertainty(0.9)
    (1.0, 0.2)
    """
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {probability!r}")
    return round(1.0 - 2.0 * abs(probability - 0.5), 12)


def agreeing_answers(answers: Sequence[str], *, normalizer: Literal["en", "fa"] | Normalizer = "en") -> int:
    """Size of the largest group of answers that agree exactly after SQuAD normalisation.

    ``""`` (unanswerable) answers agree with each other.

    Examples
    --------
    >>> agreeing_answers(["The Broncos", "broncos.", "Denver", ""])
    2
    """
    if isinstance(answers, str):
        raise ValueError("answers must be a sequence of strings, not a single string")
    norm = resolve_normalizer(normalizer)[1]
    counts = Counter(norm(a) for a in answers)
    return max(counts.values(), default=0)


def needs_more_answers(answers: Sequence[str], *, k: int, max_answers: int,
                       normalizer: Literal["en", "fa"] | Normalizer = "en") -> bool:
    """A question needs another second-pass answer while fewer than ``k`` agree and it has under ``max_answers``.

    ``max_answers`` stops routing a question that is genuinely ambiguous forever.

    Examples
    --------
    >>> needs_more_answers(["Denver", "Broncos"], k=2, max_answers=5)
    True
    >>> needs_more_answers(["Broncos", "the Broncos"], k=2, max_answers=5)
    False
    """
    if int(k) != k or k < 1 or int(max_answers) != max_answers or max_answers < k:
        raise ValueError(f"need integers 1 <= k <= max_answers, got k={k!r}, max_answers={max_answers!r}")
    return len(answers) < max_answers and agreeing_answers(answers, normalizer=normalizer) < k


@dataclass(frozen=True)
class ParagraphCandidate:
    """A paragraph the worker may get.

    ``rank``: position in PageRank order (smaller first); ``uncertainty``: the QA model's
    uncertainty (``None``: not scored yet, routed after every scored one); ``second_pass``: the
    second-pass answers of each of its questions (``""`` for "unanswerable").
    """

    paragraph: Hashable
    rank: int
    uncertainty: float | None = None
    second_pass: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class Routing:
    """Candidates in the order to offer them, with the score that ordered each (higher first).

    The score is ``-rank`` for ``"pagerank"``, the uncertainty for ``"uncertainty"``, the number of
    unsettled questions for ``"disagreement"``. Under ``"disagreement"`` paragraphs with no
    unsettled question are left out: they need no more answers.
    """

    strategy: Strategy
    paragraphs: tuple[Hashable, ...]
    scores: tuple[float, ...]


def route(
    candidates: Sequence[ParagraphCandidate],
    strategy: Strategy,
    *,
    k: int = 2,
    max_answers: int = 5,
    normalizer: Literal["en", "fa"] | Normalizer = "en",
) -> Routing:
    """Order the candidates by ``strategy``; ties and unscored paragraphs keep PageRank order.

    Parameters
    ----------
    candidates : sequence of ParagraphCandidate
    strategy : {"pagerank", "uncertainty", "disagreement"}
    k, max_answers : int
        Under ``"disagreement"``: a question is settled once ``k`` answers agree or it has ``max_answers``.
    normalizer : {"en", "fa"} or callable
        How second-pass answers are compared.

    Examples
    --------
    >>> ps = [ParagraphCandidate("p1", 0, 0.1, (("Denver", "Denver"),)),
    ...       ParagraphCandidate("p2", 1, 0.9, (("Denver", "1966"),)),
    ...       ParagraphCandidate("p3", 2, None)]
    >>> route(ps, "pagerank").paragraphs, route(ps, "uncertainty").paragraphs
    (('p1', 'p2', 'p3'), ('p2', 'p1', 'p3'))
    >>> route(ps, "disagreement").paragraphs
    ('p2',)
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    if len({c.paragraph for c in candidates}) != len(candidates):
        raise ValueError("a paragraph is listed twice among the candidates")
    scored: list[tuple[float, ParagraphCandidate]] = []
    for c in candidates:
        if strategy == "pagerank":
            scored.append((-float(c.rank), c))
        elif strategy == "uncertainty":
            if c.uncertainty is not None and (math.isnan(c.uncertainty) or c.uncertainty < 0.0):
                raise ValueError(f"uncertainty must be a non-negative number, got {c.uncertainty!r}")
            scored.append((-math.inf if c.uncertainty is None else float(c.uncertainty), c))
        else:
            open_questions = sum(needs_more_answers(a, k=k, max_answers=max_answers, normalizer=normalizer)
                                 for a in c.second_pass)
            if open_questions:
                scored.append((float(open_questions), c))
    scored.sort(key=lambda item: (-item[0], item[1].rank))
    return Routing(strategy, tuple(c.paragraph for _, c in scored), tuple(s for s, _ in scored))


def next_paragraph(candidates: Sequence[ParagraphCandidate], strategy: Strategy, *, k: int = 2,
                   max_answers: int = 5, normalizer: Literal["en", "fa"] | Normalizer = "en") -> Hashable | None:
    """The first paragraph :func:`route` offers, or ``None`` if there is none.

    Examples
    --------
    >>> next_paragraph([ParagraphCandidate("a", 0, 0.2), ParagraphCandidate("b", 1, 0.7)], "uncertainty")
    'b'
    """
    order = route(candidates, strategy, k=k, max_answers=max_answers, normalizer=normalizer).paragraphs
    return order[0] if order else None
