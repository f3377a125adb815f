"""Reads of the owner's review: the queue of questions in review or appealed, with the evidence to
decide (validators' answers, near-duplicates, the live model's answer, earlier decisions)."""

from django.db.models import Prefetch, QuerySet

from accounts.models import User
from collector.models import Appeal, Prediction, Question, QuestionStatus, Round, Validation
from core.exceptions import AccessError, NotFoundError
from courses.selectors import courses_managed_by, user_manages_course


def review_queue(*, user: User, round_: Round | None = None, status: str | None = None) -> QuerySet[Question]:
    """Questions waiting for a course manager: in review or with an open appeal, oldest first."""
    courses = courses_managed_by(user=user)
    statuses = [status] if status else [QuestionStatus.REVIEW, QuestionStatus.APPEALED]
    questions = Question.objects.filter(round__course__in=courses, status__in=statuses)
    if round_ is not None:
        questions = questions.filter(round=round_)
    return _with_evidence(questions.select_related("author", "round", "round__course")).order_by("created_at", "id")


def _with_evidence(questions: QuerySet[Question]) -> QuerySet[Question]:
    live = Prediction.objects.filter(kind=Prediction.Kind.LIVE).select_related("model_version")
    return questions.prefetch_related(
        Prefetch("validations", queryset=Validation.objects.select_related("validator")),
        "duplicate_flags__similar_to__author",
        Prefetch("predictions", queryset=live, to_attr="live_predictions"),
        "decisions__reviewer",
    ).select_related("appeal")


def question_for_reviewer(*, user: User, question_id: int) -> Question:
    try:
        question = _with_evidence(Question.objects.select_related("author", "round", "round__course")).get(pk=question_id)
    except (Question.DoesNotExist, ValueError, TypeError):
        raise NotFoundError("This question does not exist.") from None
    if not user_manages_course(user=user, course=question.round.course):
        raise AccessError("Only the course's instructors can review its questions.")
    return question


def appeal_of(question: Question) -> Appeal | None:
    try:
        return question.appeal
    except Appeal.DoesNotExist:
        return None


def review_counts(*, user: User) -> int:
    """Questions waiting for this manager (the navigation badge)."""
    return review_queue(user=user).count() if user.is_authenticated else 0
