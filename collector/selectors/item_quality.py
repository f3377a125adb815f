"""Item quality of a round's questions from item response theory (issue 29 §3).

``round_response_matrix`` builds the round's response matrix: one row per question (oldest first),
one column per respondent that answered some of them:

* each fold model of the round's latest cross-validation run with predictions (``cv``), which
  answered its held-out fold;
* each fold model of the latest answer-only scoring run (``answer_only``): it shapes the fit but is
  neither group of the quality score (``docs/item-quality.md`` §0);
* each model that answered at submission (``model``): the live model's stored ``Prediction`` and the
  panel's stored verdicts, one column per model version;
* each human validator (``human``): correct = picked the author's answer (no pick counts as wrong).

``round_item_quality`` fits ``mlcore.stats.irt.fit_2pl`` and ``adversarial_quality`` (humans against
the models: fold models and models at submission) and caches the result under a fingerprint of the
round's latest data change, so pages recompute only after new questions, answers or scores.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from django.core.cache import cache
from django.db.models import Case, Count, IntegerField, Max, QuerySet, Value, When

from collector.models import CVPrediction, Prediction, Question, Round, ScoringRun, SubmissionVerdict, Validation
from mlcore.stats.irt import adversarial_quality, fit_2pl

HUMAN, MODEL, OTHER = "human", "model", "other"
MIN_QUESTIONS = 2
_CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Respondent:
    """One column of the matrix: ``key`` is stable (e.g. ``cv:7:0:1`` = run 7, trial 0, fold 1)."""

    key: str
    group: str  # HUMAN, MODEL or OTHER (answers shape the fit, not the score)


@dataclass(frozen=True)
class ResponseMatrix:
    question_ids: tuple[int, ...]
    respondents: tuple[Respondent, ...]
    responses: npt.NDArray[np.float64]  # (questions, respondents): 1 correct, 0 wrong, nan not answered

    def columns(self, group: str) -> list[int]:
        return [j for j, r in enumerate(self.respondents) if r.group == group]


@dataclass(frozen=True)
class ItemQuality:
    """One question's scores: quality in [0, 1] (higher: people right, models wrong)."""

    question_id: int
    quality: float
    difficulty: float
    discrimination: float
    human_accuracy: float
    model_accuracy: float
    n_human: int
    n_model: int


@dataclass(frozen=True)
class RoundItemQuality:
    """The round's item quality; ``ready`` False (with ``reason``) when there are too few answers."""

    ready: bool
    reason: str = ""
    items: dict[int, ItemQuality] = field(default_factory=dict)
    order: tuple[int, ...] = ()  # question ids, best first (adversarial_quality's ranking)
    n_questions: int = 0
    n_humans: int = 0
    n_models: int = 0

    def get(self, question_id: int) -> ItemQuality | None:
        return self.items.get(question_id)


def _round_questions(round_: Round) -> list[tuple[int, int]]:
    return list(Question.objects.filter(round=round_).order_by("created_at", "id").values_list("id", "correct_index"))


def _latest_run_id(round_: Round, kind: str) -> int | None:
    return (
        CVPrediction.objects.filter(run__round=round_, run__kind=kind)
        .order_by("-run__created_at", "-run_id").values_list("run_id", flat=True).first()
    )


def _fold_answers(round_: Round, kind: str, prefix: str) -> dict[tuple[int, str], bool]:
    run_id = _latest_run_id(round_, kind)
    if run_id is None:
        return {}
    rows = CVPrediction.objects.filter(run_id=run_id).values_list("question_id", "trial", "fold", "correct")
    return {(qid, f"{prefix}:{run_id}:{trial}:{fold}"): bool(correct) for qid, trial, fold, correct in rows}


def _submission_answers(round_: Round, key: dict[int, int]) -> dict[tuple[int, str], bool]:
    """Models that answered at submission: stored panel verdicts, then the live prediction (which wins)."""
    answers: dict[tuple[int, str], bool] = {}
    verdicts = SubmissionVerdict.objects.filter(
        question__round=round_, status=SubmissionVerdict.Status.DONE, predicted_index__isnull=False
    ).values_list("question_id", "model_version_id", "predicted_index")
    for qid, version_id, picked in verdicts:
        answers[(qid, f"model:{version_id}")] = picked == key[qid]
    live = Prediction.objects.filter(
        question__round=round_, kind=Prediction.Kind.LIVE, status=Prediction.Status.DONE, predicted_index__isnull=False
    ).values_list("question_id", "model_version_id", "predicted_index")
    for qid, version_id, picked in live:
        answers[(qid, f"model:{version_id or 'default'}")] = picked == key[qid]
    return answers


def _human_answers(round_: Round, key: dict[int, int]) -> dict[tuple[int, str], bool]:
    rows = Validation.objects.filter(question__round=round_).values_list("question_id", "validator_id", "chosen_index")
    return {(qid, f"human:{user_id}"): chosen is not None and chosen == key[qid] for qid, user_id, chosen in rows}


def round_response_matrix(*, round_: Round) -> ResponseMatrix:
    """The round's response matrix (see the module docstring); columns sorted by group, then key."""
    questions = _round_questions(round_)
    key = dict(questions)
    groups = (
        (MODEL, _fold_answers(round_, ScoringRun.Kind.CROSS_VALIDATION, "cv")),
        (MODEL, _submission_answers(round_, key)),
        (OTHER, _fold_answers(round_, ScoringRun.Kind.ANSWER_ONLY, "answer_only")),
        (HUMAN, _human_answers(round_, key)),
    )
    respondents: list[Respondent] = []
    for group, answers in groups:
        respondents += [Respondent(k, group) for k in sorted({k for _, k in answers})]
    column = {r.key: j for j, r in enumerate(respondents)}
    row = {qid: i for i, (qid, _) in enumerate(questions)}
    y = np.full((len(questions), len(respondents)), np.nan)
    for _, answers in groups:
        for (qid, k), correct in answers.items():
            if qid in row:
                y[row[qid], column[k]] = 1.0 if correct else 0.0
    y.setflags(write=False)
    return ResponseMatrix(tuple(qid for qid, _ in questions), tuple(respondents), y)


def _fit(matrix: ResponseMatrix) -> RoundItemQuality:
    humans, models = matrix.columns(HUMAN), matrix.columns(MODEL)
    counts = {"n_questions": len(matrix.question_ids), "n_humans": len(humans), "n_models": len(models)}
    if len(matrix.question_ids) < MIN_QUESTIONS or not humans or not models:
        return RoundItemQuality(ready=False, reason="not enough answers yet", **counts)
    fit = fit_2pl(matrix.responses)
    scores = adversarial_quality(fit, matrix.responses, human_columns=humans, model_columns=models)
    items = {
        qid: ItemQuality(
            question_id=qid, quality=float(scores.score[i]), difficulty=float(fit.difficulty[i]),
            discrimination=float(fit.discrimination[i]), human_accuracy=float(scores.human_accuracy[i]),
            model_accuracy=float(scores.model_accuracy[i]), n_human=int(scores.n_human[i]),
            n_model=int(scores.n_model[i]),
        )
        for i, qid in enumerate(matrix.question_ids)
    }
    order = tuple(matrix.question_ids[i] for i in scores.ranking())
    return RoundItemQuality(ready=True, items=items, order=order, **counts)


def _fingerprint(round_: Round) -> str:
    """Changes whenever a question, validation, scoring prediction or submission verdict does."""
    parts = [
        Question.objects.filter(round=round_).aggregate(n=Count("id"), t=Max("updated_at")),
        Validation.objects.filter(question__round=round_).aggregate(n=Count("id"), m=Max("id")),
        CVPrediction.objects.filter(run__round=round_).aggregate(n=Count("id"), m=Max("id")),
        Prediction.objects.filter(question__round=round_).aggregate(n=Count("id"), t=Max("computed_at")),
        SubmissionVerdict.objects.filter(question__round=round_).aggregate(n=Count("id"), t=Max("computed_at")),
    ]
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def round_item_quality(*, round_: Round) -> RoundItemQuality:
    """Quality, difficulty and discrimination of every question of ``round_`` (cached per data change)."""
    cache_key = f"collector:item-quality:{round_.pk}:{_fingerprint(round_)}"
    result = cache.get(cache_key)
    if result is None:
        result = _fit(round_response_matrix(round_=round_))
        cache.set(cache_key, result, _CACHE_SECONDS)
    return result


def quality_rank(quality: RoundItemQuality) -> Case | None:
    """An ``order_by`` expression: a question's place in the quality order (0 best; questions
    without a score last); None when the round has no scores yet."""
    if not quality.ready:
        return None
    return Case(*(When(pk=pk, then=Value(i)) for i, pk in enumerate(quality.order)),
                default=Value(len(quality.order)), output_field=IntegerField())


def questions_by_quality(questions: QuerySet[Question], quality: RoundItemQuality) -> QuerySet[Question]:
    """``questions`` best quality first (then newest); unchanged when the round has no scores yet."""
    rank = quality_rank(quality)
    return questions if rank is None else questions.order_by(rank, "-created_at", "-id")


def item_quality_fields(item: ItemQuality | None) -> dict[str, float | None]:
    """The export columns of one question: quality, difficulty, discrimination (None: no scores yet)."""
    if item is None:
        return {"quality": None, "difficulty": None, "discrimination": None}
    return {"quality": round(item.quality, 4), "difficulty": round(item.difficulty, 4),
            "discrimination": round(item.discrimination, 4)}
