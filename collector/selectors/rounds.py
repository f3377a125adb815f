"""Reads of rounds: who may see, write in or manage a round, a course's rounds, a round's counts."""
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from collector.models import Prediction, Question, Round
from collector.selectors.scoring import scoring_stats
from core.exceptions import AccessError, NotFoundError
from courses.models import Course
from courses.selectors import user_in_course, user_manages_course
from mlcore.configs import CATEGORIES
from modelhub.models import ModelVersion
from modelhub.services import DEFAULT_MODEL_NAME


def rounds_for_user(*, user: User) -> QuerySet[Round]:
    """Rounds a user can see: of courses they are in, or all of them for staff."""
    rounds = Round.objects.select_related("course", "live_model")
    if user.is_staff or user.is_superuser:
        return rounds.all()
    return rounds.filter(
        Q(course__enrollments__user=user) | Q(course__owner=user) | Q(course__instructors=user)
    ).distinct()


def round_get(*, round_id: int) -> Round:
    try:
        return Round.objects.select_related("course", "live_model").get(pk=round_id)
    except (Round.DoesNotExist, ValueError, TypeError):
        raise NotFoundError(_("This round does not exist.")) from None


def round_get_optional(*, round_id: int | None) -> Round | None:
    """:func:`round_get` for an optional filter: None when no round was asked for."""
    return None if round_id is None else round_get(round_id=round_id)


def round_get_by_name(*, name: str) -> Round:
    try:
        return Round.objects.select_related("course", "live_model").get(name=name)
    except Round.DoesNotExist:
        raise NotFoundError(f"No round is named {name!r}.") from None


def user_get_by_username(*, username: str) -> User:
    try:
        return User.objects.get(username=username)
    except User.DoesNotExist:
        raise NotFoundError(f"No user is named {username!r}.") from None


def round_for_author(*, user: User, round_id: int) -> Round:
    """The round if ``user`` may write questions in it now; otherwise a clear AccessError."""
    if not user.is_authenticated:
        raise AccessError(_("Please sign in to write questions."))
    round_ = round_get(round_id=round_id)
    if not user_in_course(user=user, course=round_.course):
        raise AccessError(_("This round belongs to a course you are not enrolled in."))
    if not round_.is_open():
        raise AccessError(_("This round is closed: it no longer accepts questions."))
    return round_


def round_for_manager(*, user: User, round_id: int) -> Round:
    round_ = round_get(round_id=round_id)
    if not user_manages_course(user=user, course=round_.course):
        raise AccessError(_("Only the course's instructors can open this page."))
    return round_


def round_stats(*, round_: Round) -> dict:
    """Counts for `round_stats --json` and the instructor page."""
    questions = Question.objects.filter(round=round_)
    per_category = dict.fromkeys(CATEGORIES, 0)
    for categories in questions.values_list("categories", flat=True):
        for category in categories or ["other"]:
            per_category[category] = per_category.get(category, 0) + 1
    live = Prediction.objects.filter(question__round=round_, kind=Prediction.Kind.LIVE)
    counts = live.aggregate(
        done=Count("id", filter=Q(status=Prediction.Status.DONE)),
        pending=Count("id", filter=Q(status=Prediction.Status.PENDING)),
        fooled=Count("id", filter=Q(fooled=True)),
    )
    total = questions.count()
    return {
        "round": round_.name,
        "questions": total,
        "authors": questions.values("author").distinct().count(),
        "categories": per_category,
        "fooled_live": counts["fooled"],
        "predicted_live": counts["done"],
        "pending_live": counts["pending"],
        "fooling_rate_live": (counts["fooled"] / counts["done"]) if counts["done"] else None,
        **scoring_stats(round_=round_),
    }


def course_rounds(*, course: Course) -> QuerySet[Round]:
    """The course's rounds, newest first, each with ``num_questions``."""
    return (
        Round.objects.filter(course=course)
        .select_related("live_model")
        .annotate(num_questions=Count("questions"))
        .order_by("-created_at")
    )


def rounds_open_for_author(*, user: User) -> list[Round]:
    """Rounds ``user`` may write questions in right now (the authoring page's access rule)."""
    rounds = rounds_for_user(user=user).order_by(F("closes_at").asc(nulls_last=True), "-created_at")
    return [round_ for round_ in rounds if round_.is_open()]


def round_authors(*, round_: Round) -> QuerySet[User]:
    return User.objects.filter(questions__round=round_).distinct().order_by("username")


def model_versions_live() -> list[ModelVersion]:
    """The models drafts need now: live and answer-only models of the rounds open (or not yet closed)."""
    rounds = Round.objects.select_related("live_model", "answer_only_model").filter(
        Q(closes_at__isnull=True) | Q(closes_at__gt=timezone.now()))
    versions = {}
    for round_ in rounds:
        for version in (round_.live_model, round_.answer_only_model if round_.coach_answer_only else None):
            if version is not None:
                versions[version.pk] = version
    return list(versions.values())


def round_live_model(*, round_: Round) -> ModelVersion | None:
    """The model that answers the round's authors: its live model, else version 0 once registered
    (a read: the consumer registers version 0 when it first needs it)."""
    return round_.live_model or ModelVersion.objects.filter(name=DEFAULT_MODEL_NAME).first()
