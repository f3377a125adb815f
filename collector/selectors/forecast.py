"""Reads for the survival forecast (issue 29 §1): a course's scored questions as training data, its
stored forecast, and the features of a draft, computed the same way for both.

What the author page knows at submission and what is stored per question:

* the live model's probabilities: the question's ``Prediction`` of kind ``live`` (questions without
  a finished one are left out of training);
* the answer-only model's pick: its ``answer_only`` prediction, when the round's coach asked one;
* the coach's warnings: ``CoachWarning`` rows still present when it was submitted (the stored kinds
  only; the junk check decides live credit and is not stored, so it is not counted while typing either);
* similarity to existing questions: known only when a near-duplicate was found (the stored
  ``DuplicateFlag``; on the page, the coach's duplicate warning), otherwise left neutral
  (``max_similarity=None``), since the similarity of a question that had no near-duplicate is not stored.

The outcome is the newest finished cross-validation run of each round: the question *survived* when
the out-of-fold models missed it in at least half of the run's trials.
"""
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Max

from collector.models import (
    CoachWarning,
    CVPrediction,
    DuplicateFlag,
    Prediction,
    Question,
    Round,
    ScoringRun,
    SurvivalForecastJob,
)
from courses.models import Course
from mlcore.stats.survival import SurvivalFeatures, survival_features

#: Warning kinds counted as the coach's warnings (the stored ones).
COUNTED_WARNINGS = frozenset(CoachWarning.Kind.values)


@dataclass
class ForecastTrainingData:
    """The scored questions of a course: one feature row, outcome and fold each."""

    features: list[SurvivalFeatures] = field(default_factory=list)
    survived: list[bool] = field(default_factory=list)
    folds: list[int] = field(default_factory=list)
    question_ids: list[int] = field(default_factory=list)
    round_ids: list[int] = field(default_factory=list)
    run_ids: list[int] = field(default_factory=list)


def draft_features(*, prompt: str, choices: Sequence[str], answer: int, probs: Sequence[float],
                   answer_only_pick: int | None, warnings: Sequence[dict],
                   max_similarity: float | None = None) -> SurvivalFeatures:
    """A draft's features from what its page shows: the live model's probabilities, the answer-only
    pick and the coach's warnings (JSON dicts as the author socket sends them). The similarity is
    the duplicate warning's unless given (a stored question's ``DuplicateFlag``)."""
    if max_similarity is None:
        similarities = [float(w["similarity"]) for w in warnings
                        if w.get("kind") == CoachWarning.Kind.DUPLICATE and w.get("similarity") is not None]
        max_similarity = max(similarities) if similarities else None
    return survival_features(
        prompt, list(choices), answer, _normalised(probs), answer_only_pick=answer_only_pick,
        coach_warnings=sum(1 for w in warnings if w.get("kind") in COUNTED_WARNINGS),
        max_similarity=max_similarity,
    )


def _normalised(probs: Sequence[float]) -> list[float]:
    """Stored probabilities are rounded; they are rescaled to sum to exactly 1."""
    total = float(sum(probs))
    return [float(p) / total for p in probs] if total > 0 else [1.0 / len(probs)] * len(probs)


def _latest_cv_runs(course: Course) -> list[ScoringRun]:
    runs: dict[int, ScoringRun] = {}
    done = ScoringRun.objects.filter(round__course=course, kind=ScoringRun.Kind.CROSS_VALIDATION,
                                     status=ScoringRun.Status.DONE).order_by("round_id", "-finished_at", "-pk")
    for run in done:
        runs.setdefault(run.round_id, run)
    return list(runs.values())


def _outcomes(run: ScoringRun) -> tuple[dict[int, bool], dict[int, int]]:
    missed: dict[int, list[bool]] = defaultdict(list)
    fold: dict[int, int] = {}
    for question_id, trial, fold_id, correct in CVPrediction.objects.filter(run=run).values_list(
            "question_id", "trial", "fold", "correct"):
        missed[question_id].append(not correct)
        if trial == 0:
            fold[question_id] = fold_id
    return {pk: 2 * sum(values) >= len(values) for pk, values in missed.items()}, fold


def forecast_training_data(*, course: Course) -> ForecastTrainingData:
    """Every question of the course with a finished cross-validation outcome and a live prediction."""
    data = ForecastTrainingData()
    for run in _latest_cv_runs(course):
        survived, fold = _outcomes(run)
        questions = list(Question.objects.filter(pk__in=list(survived)).order_by("pk"))
        ids = [q.pk for q in questions]
        live = {p.question_id: p for p in Prediction.objects.filter(
            question_id__in=ids, kind=Prediction.Kind.LIVE, status=Prediction.Status.DONE, probs__isnull=False)}
        answer_only = dict(Prediction.objects.filter(
            question_id__in=ids, kind=Prediction.Kind.ANSWER_ONLY, status=Prediction.Status.DONE,
            predicted_index__isnull=False).values_list("question_id", "predicted_index"))
        warnings: dict[int, list[dict]] = defaultdict(list)
        for question_id, kind in CoachWarning.objects.filter(question_id__in=ids, present_at_submit=True).values_list(
                "question_id", "kind"):
            warnings[question_id].append({"kind": kind})
        similarity = dict(DuplicateFlag.objects.filter(question_id__in=ids).values("question_id")
                          .annotate(top=Max("similarity")).values_list("question_id", "top"))
        used = False
        for question in questions:
            prediction = live.get(question.pk)
            if prediction is None or len(prediction.probs) != len(question.choices):
                continue
            data.features.append(_stored_features(question, prediction, answer_only, warnings[question.pk],
                                                  similarity.get(question.pk)))
            data.survived.append(survived[question.pk])
            data.folds.append(fold.get(question.pk, 0))
            data.question_ids.append(question.pk)
            used = True
        if used:
            data.round_ids.append(run.round_id)
            data.run_ids.append(run.pk)
    return data


def _stored_features(question: Question, prediction: Prediction, answer_only: dict[int, int],
                     warnings: list[dict], similarity: float | None) -> SurvivalFeatures:
    return draft_features(
        prompt=question.prompt, choices=question.choices, answer=question.correct_index, probs=prediction.probs,
        answer_only_pick=answer_only.get(question.pk), warnings=warnings, max_similarity=similarity,
    )


def forecast_for_course(*, course_id: int) -> SurvivalForecastJob | None:
    """The course's stored forecast: its newest finished training (shown or not)."""
    return (SurvivalForecastJob.objects.filter(course_id=course_id, status=SurvivalForecastJob.Status.DONE)
            .order_by("-finished_at", "-pk").first())


def forecast_job_latest(*, round_: Round) -> SurvivalForecastJob | None:
    """The newest training of the round's course (any status), for the round page."""
    return SurvivalForecastJob.objects.filter(course_id=round_.course_id).select_related("round").first()


def forecast_job_get(*, job_id: int) -> SurvivalForecastJob:
    return SurvivalForecastJob.objects.select_related("course", "round").get(pk=job_id)
