"""SQuAD-2.0 / PQuAD metrics: EM, F1, HasAns/NoAns splits and AvNA (SPEC-bias §6).

English scoring reproduces the official ``evaluate-v2.0.py``: the same normalizer,
max over gold answers, no-answer threshold and percentages. PQuAD publishes no
evaluation script, so :func:`normalize_fa` is the SPEC's documented choice (§6.2);
report PQuAD scores under both normalizers.

The gold reader accepts the SQuAD 2.0 layout (``data/title/paragraphs/context/qas``)
and PQuAD's variant of it (``version`` "c1", no ``plausible_answers``).
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from mlcore.data.bounded_json import load_json
from mlcore.stats.squad_normalization import normalize_en, normalize_fa

__all__ = [
    "QuestionScore", "SquadAnswer", "SquadDataset", "SquadEvalResult", "SquadQuestion",
    "exact_match", "f1_score", "normalize_en", "normalize_fa", "parse_squad_json",
    "read_squad_json", "resolve_normalizer", "score_question", "squad_evaluate",
]

Normalizer = Callable[[str], str]

_NORMALIZERS: dict[str, Normalizer] = {"en": normalize_en, "fa": normalize_fa}


def resolve_normalizer(normalizer: Literal["en", "fa"] | Normalizer) -> tuple[str, Normalizer]:
    """(name, function) of a normaliser given by language ("en", "fa") or as a function: the one
    place the metrics, agreement and routing turn a setting into a normaliser."""
    if callable(normalizer):
        return getattr(normalizer, "__name__", "custom"), normalizer
    if normalizer not in _NORMALIZERS:
        raise ValueError(f"normalizer must be 'en', 'fa' or a callable, got {normalizer!r}")
    return normalizer, _NORMALIZERS[normalizer]


def exact_match(gold: str, pred: str, *, normalizer: Literal["en", "fa"] | Normalizer = "en") -> int:
    """1 if the normalized strings are equal, else 0.

    Examples
    --------
    >>> exact_match("The Eiffel Tower", "the eiffel tower.")
    1
    """
    norm = resolve_normalizer(normalizer)[1]
    return int(norm(gold) == norm(pred))


def f1_score(gold: str, pred: str, *, normalizer: Literal["en", "fa"] | Normalizer = "en") -> float:
    """Bag-of-tokens F1 between one gold answer and a prediction (official script).

    If either side has no tokens the score is 1 when both are empty, else 0.

    Examples
    --------
    >>> round(f1_score("Denver Broncos", "Broncos"), 6)
    0.666667
    """
    norm = resolve_normalizer(normalizer)[1]
    gold_toks, pred_toks = norm(gold).split(), norm(pred).split()
    if not gold_toks or not pred_toks:
        return float(gold_toks == pred_toks)
    common = sum((collections.Counter(gold_toks) & collections.Counter(pred_toks)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(pred_toks), common / len(gold_toks)
    return 2 * precision * recall / (precision + recall)


def score_question(golds: Sequence[str], pred: str, *,
                   normalizer: Literal["en", "fa"] | Normalizer = "en") -> tuple[int, float]:
    """(EM, F1) of one prediction: max over the gold texts that normalize non-empty.

    A question whose golds all normalize to ``""`` (or has none) is a no-answer
    question, scored against ``""``.

    Examples
    --------
    >>> score_question([], "")
    (1, 1.0)
    >>> score_question(["1066"], "")
    (0, 0.0)
    """
    if isinstance(golds, str):
        raise ValueError("golds must be a sequence of strings, not a single string")
    norm = resolve_normalizer(normalizer)[1]
    kept = [g for g in golds if norm(g)] or [""]
    return (max(exact_match(g, pred, normalizer=norm) for g in kept),
            max(f1_score(g, pred, normalizer=norm) for g in kept))


# --------------------------------------------------------------------------- gold reader
@dataclass(frozen=True)
class SquadAnswer:
    """One gold (or plausible) answer span: ``text`` starts at character ``answer_start`` of the
    question's context (counted in code points, as SQuAD does)."""

    text: str
    answer_start: int


@dataclass(frozen=True)
class SquadQuestion:
    """One question with its paragraph; ``answers`` is empty for unanswerable ones."""

    qid: str
    question: str
    context: str
    title: str
    answers: tuple[SquadAnswer, ...]
    is_impossible: bool
    plausible_answers: tuple[SquadAnswer, ...] = ()

    @property
    def has_answer(self) -> bool:
        """True if the ``answers`` list is non-empty (the official script's HasAns rule)."""
        return bool(self.answers)

    @property
    def answer_texts(self) -> tuple[str, ...]:
        """The gold answer strings, in file order."""
        return tuple(a.text for a in self.answers)


@dataclass(frozen=True)
class SquadDataset:
    """A SQuAD-2.0-layout gold file, flattened to questions in file order."""

    version: str
    questions: tuple[SquadQuestion, ...]
    n_articles: int
    n_paragraphs: int

    def __len__(self) -> int:
        return len(self.questions)


def _answers(raw: Any, where: str) -> tuple[SquadAnswer, ...]:
    if not isinstance(raw, list):
        raise ValueError(f"{where}: answers must be a list")
    try:
        return tuple(SquadAnswer(str(a["text"]), int(a["answer_start"])) for a in raw)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"{where}: every answer needs 'text' and 'answer_start' ({exc})") from None


def parse_squad_json(obj: Mapping[str, Any]) -> SquadDataset:
    """Flatten a parsed SQuAD-2.0 / PQuAD JSON object into frozen records.

    Raises ``ValueError`` on a missing key, a duplicate id, or ``is_impossible``
    contradicting the answers. Without ``is_impossible`` (SQuAD 1.1) it is derived
    from an empty ``answers`` list.

    Examples
    --------
    >>> obj = {"version": "v2.0", "data": [{"title": "T", "paragraphs": [{"context": "Paris.",
    ...        "qas": [{"id": "q1", "question": "Where?", "answers": [], "is_impossible": True}]}]}]}
    >>> parse_squad_json(obj).questions[0].has_answer
    False
    """
    questions: list[SquadQuestion] = []
    seen: set[str] = set()
    n_paragraphs = 0
    try:
        articles = obj["data"]
        for article in articles:
            title = str(article.get("title", ""))
            for para in article["paragraphs"]:
                n_paragraphs += 1
                for qa in para["qas"]:
                    qid = str(qa["id"])
                    if qid in seen:
                        raise ValueError(f"duplicate question id {qid!r}")
                    seen.add(qid)
                    answers = _answers(qa.get("answers", []), f"question {qid!r}")
                    impossible = bool(qa.get("is_impossible", not answers))
                    if impossible and answers:
                        raise ValueError(f"question {qid!r} is_impossible but has answers")
                    plausible = _answers(qa.get("plausible_answers", []), f"question {qid!r}")
                    questions.append(SquadQuestion(qid, str(qa["question"]), str(para["context"]), title,
                                                   answers, impossible, plausible))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not SQuAD-2.0 JSON: missing or malformed {exc}") from None
    return SquadDataset(str(obj.get("version", "")), tuple(questions), len(articles), n_paragraphs)


def read_squad_json(path: str | Path) -> SquadDataset:
    """Read a SQuAD-2.0-layout gold file (UTF-8), e.g. PQuAD's ``Validation.json``.

    Examples
    --------
    PQuAD's validation set, which is not in the repository (``shared/data`` beside it here):

    >>> pquad = read_squad_json("../shared/data/pquad/Validation.json")  # data outside the repository  # doctest: +SKIP
    >>> len(pquad), pquad.n_articles, pquad.n_paragraphs  # (the file is outside the repository)  # doctest: +SKIP
    (7976, 120, 1103)
    """
    with open(path, encoding="utf-8") as fh:
        return parse_squad_json(load_json(fh.read()))


# --------------------------------------------------------------------------- evaluation
@dataclass(frozen=True)
class QuestionScore:
    """Per-question scores after the no-answer threshold (0/1 EM, F1 in [0, 1])."""

    qid: str
    exact: int
    f1: float
    has_answer: bool
    answered: bool
    missing: bool
    na_thresholded: bool


@dataclass(frozen=True)
class SquadEvalResult:
    """Aggregates in percent, like the official script; ``None`` for an empty split.

    ``avna`` is 100 × mean 1[answered == has_answer] (answered = normalized
    prediction non-empty and not thresholded away); ``n_missing`` counts gold
    questions without a prediction (scored as ``""``).
    """

    exact: float
    f1: float
    total: int
    has_ans_exact: float | None
    has_ans_f1: float | None
    has_ans_total: int
    no_ans_exact: float | None
    no_ans_f1: float | None
    no_ans_total: int
    avna: float
    n_missing: int
    normalizer: str
    na_prob_thresh: float
    scores: tuple[QuestionScore, ...]

    def as_dict(self) -> dict[str, float | int]:
        """The official script's keys and order; empty splits are omitted as upstream."""
        out: dict[str, float | int] = {"exact": self.exact, "f1": self.f1, "total": self.total}
        if self.has_ans_total and self.has_ans_exact is not None and self.has_ans_f1 is not None:
            out.update(HasAns_exact=self.has_ans_exact, HasAns_f1=self.has_ans_f1,
                       HasAns_total=self.has_ans_total)
        if self.no_ans_total and self.no_ans_exact is not None and self.no_ans_f1 is not None:
            out.update(NoAns_exact=self.no_ans_exact, NoAns_f1=self.no_ans_f1, NoAns_total=self.no_ans_total)
        return out


def _percent(scores: Sequence[QuestionScore]) -> tuple[float | None, float | None]:
    if not scores:
        return None, None
    # Same arithmetic as upstream (100 * sum / total) so numbers match to the last bit.
    return (100.0 * sum(s.exact for s in scores) / len(scores),
            100.0 * sum(s.f1 for s in scores) / len(scores))


def squad_evaluate(
    gold: SquadDataset | Sequence[SquadQuestion],
    predictions: Mapping[str, str],
    *,
    na_probs: Mapping[str, float] | None = None,
    na_prob_thresh: float = 1.0,
    normalizer: Literal["en", "fa"] | Normalizer = "en",
) -> SquadEvalResult:
    """Score predictions against SQuAD-2.0 gold (SPEC-bias §6.3–6.4).

    Parameters
    ----------
    gold : SquadDataset or sequence of SquadQuestion
        Gold questions; must not be empty.
    predictions : mapping of str to str
        Question id to predicted text (``""`` = no answer). A missing id is scored as
        ``""`` and counted in ``n_missing``; ids not in ``gold`` are ignored.
    na_probs : mapping of str to float, optional
        No-answer probability per question; required for every predicted id when given.
    na_prob_thresh : float
        If ``na_probs[q] > na_prob_thresh`` the question scores 1 if it has no answer,
        else 0. The default 1.0 disables it for probabilities.
    normalizer : {"en", "fa"} or callable
        ``"en"`` = official SQuAD script; ``"fa"`` = §6.2 Persian normalizer.

    Returns
    -------
    SquadEvalResult

    Examples
    --------
    >>> qs = [SquadQuestion("1", "?", "", "", (SquadAnswer("Denver Broncos", 0),), False),
    ...       SquadQuestion("2", "?", "", "", (), True)]
    >>> r = squad_evaluate(qs, {"1": "Broncos", "2": ""})
    >>> round(r.f1, 6), r.exact, r.avna
    (83.333333, 50.0, 100.0)
    """
    questions = gold.questions if isinstance(gold, SquadDataset) else tuple(gold)
    if not questions:
        raise ValueError("gold contains no questions")
    name, norm = resolve_normalizer(normalizer)
    scores: list[QuestionScore] = []
    for q in questions:
        missing = q.qid not in predictions
        pred = "" if missing else predictions[q.qid]
        if not isinstance(pred, str):
            raise ValueError(f"prediction for {q.qid!r} must be a str, got {type(pred).__name__}")
        em, f1 = score_question(q.answer_texts, pred, normalizer=norm)
        thresholded = False
        if na_probs is not None and not missing:
            if q.qid not in na_probs:
                raise ValueError(f"na_probs has no entry for question {q.qid!r}")
            if na_probs[q.qid] > na_prob_thresh:
                thresholded = True
                em = int(not q.has_answer)
                f1 = float(em)
        answered = bool(norm(pred)) and not thresholded
        scores.append(QuestionScore(q.qid, em, f1, q.has_answer, answered, missing, thresholded))
    has = [s for s in scores if s.has_answer]
    no = [s for s in scores if not s.has_answer]
    exact, overall_f1 = _percent(scores)
    assert exact is not None and overall_f1 is not None  # scores is non-empty
    has_exact, has_f1 = _percent(has)
    no_exact, no_f1 = _percent(no)
    avna = 100.0 * sum(s.answered == s.has_answer for s in scores) / len(scores)
    return SquadEvalResult(
        exact=exact, f1=overall_f1, total=len(scores),
        has_ans_exact=has_exact, has_ans_f1=has_f1, has_ans_total=len(has),
        no_ans_exact=no_exact, no_ans_f1=no_f1, no_ans_total=len(no),
        avna=avna, n_missing=sum(s.missing for s in scores), normalizer=name,
        na_prob_thresh=float(na_prob_thresh), scores=tuple(scores),
    )
