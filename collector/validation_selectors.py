"""Reads of the quality loop: who may validate what, the blind validation queue, the owner's
review queue, validators' answers and the round's quality report."""
import random
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.db.models import Count, Prefetch, QuerySet

from accounts.models import User
from collector import coach, duplicates, selectors
from collector.models import LETTERS, NUM_CHOICES, Appeal, Prediction, Question, QuestionStatus, Round, Validation
from core.exceptions import AccessError
from courses.models import Enrollment
from courses.selectors import courses_managed_by, user_manages_course
from mlcore.stats.agreement import fleiss_kappa, pairwise_cohen_kappa, rating_counts
from mlcore.stats.human_accuracy import human_accuracy

TOKEN_SALT = "collector.validation"
MIN_SHARED_FOR_KAPPA = 5


def display_order(*, question_id: int, validator_id: int) -> tuple[int, ...]:
    """The order a validator sees a question's completions in: display position -> original
    index. Fixed per (question, validator), so a reload shows the same order."""
    order = list(range(NUM_CHOICES))
    random.Random(f"stumper-validation:{question_id}:{validator_id}").shuffle(order)
    return tuple(order)


def validation_token(*, question: Question, validator: User) -> str:
    """A signed token naming the question shown and when; the time spent is measured from it."""
    return signing.dumps({"q": question.pk, "v": validator.pk, "t": time.time()}, salt=TOKEN_SALT, compress=True)


def check_may_validate(*, user: User, question: Question) -> None:
    """Raise AccessError unless ``user`` may validate ``question`` (never its author)."""
    if not user.is_authenticated:
        raise AccessError("Please sign in to validate questions.")
    if question.author_id == user.pk:
        raise AccessError("You can't validate your own question.")
    round_ = question.round
    if user_manages_course(user=user, course=round_.course):
        return
    if not Enrollment.objects.filter(course_id=round_.course_id, user=user).exists():
        raise AccessError("This question belongs to a course you are not in.")
    if not round_.students_may_validate():
        if round_.peer_validation == "off":
            raise AccessError("In this round only the course's instructors validate questions.")
        raise AccessError("Students validate this round's questions once the round has closed.")


def rounds_to_validate(*, user: User) -> list[Round]:
    """Rounds whose questions ``user`` may validate now."""
    if not user.is_authenticated:
        return []
    rounds = selectors.rounds_for_user(user=user).select_related("course").order_by("-created_at")
    managed = set(courses_managed_by(user=user).values_list("pk", flat=True))
    return [r for r in rounds if r.course_id in managed or r.students_may_validate()]


def validation_queue(*, user: User, round_: Round | None = None) -> QuerySet[Question]:
    """Questions awaiting validation that ``user`` may validate and hasn't: fewest validations
    first, then oldest, so every question gets its validators before any gets extra ones."""
    rounds = [r for r in rounds_to_validate(user=user) if round_ is None or r.pk == round_.pk]
    return (
        Question.objects.filter(round__in=rounds, status=QuestionStatus.PENDING)
        .exclude(author=user)
        .exclude(validations__validator=user)
        .select_related("round", "round__course")
        .annotate(n_validations=Count("validations", distinct=True))
        .order_by("n_validations", "created_at", "id")
    )


def validation_next(*, user: User, round_: Round | None = None, skip: tuple[int, ...] = ()) -> Question | None:
    return validation_queue(user=user, round_=round_).exclude(pk__in=skip).first()


@dataclass(frozen=True)
class BlindChoice:
    position: int
    letter: str
    text: str


@dataclass(frozen=True)
class BlindQuestion:
    """What a validator sees: no author, no answer key, no model answer, completions shuffled."""

    question_id: int
    round: Round
    prompt: str
    choices: tuple[BlindChoice, ...]
    categories: tuple[str, ...]  # the author's, as a starting point the validator may change
    token: str


def question_from_token(*, token: str, validator: User) -> Question | None:
    """The question a validation form was issued for, if the token is sound and ``validator``'s."""
    try:
        data = signing.loads(token or "", salt=TOKEN_SALT, max_age=settings.STUMPER_VALIDATION_MAX_AGE_SECONDS)
    except signing.BadSignature:
        return None
    if data.get("v") != validator.pk:
        return None
    return Question.objects.select_related("round", "round__course").filter(pk=data.get("q")).first()


def blind_question(*, question: Question, validator: User, token: str | None = None) -> BlindQuestion:
    """The question as ``validator`` sees it; ``token`` keeps a form's original token (and clock)."""
    order = display_order(question_id=question.pk, validator_id=validator.pk)
    return BlindQuestion(
        question_id=question.pk,
        round=question.round,
        prompt=question.prompt,
        choices=tuple(BlindChoice(pos, LETTERS[pos], question.choices[index]) for pos, index in enumerate(order)),
        categories=tuple(question.categories),
        token=token or validation_token(question=question, validator=validator),
    )


def validations_done(*, user: User) -> int:
    return Validation.objects.filter(validator=user).count()


# --- The owner's review queue ----------------------------------------------------------------


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
        raise AccessError("This question does not exist.") from None
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


# --- Validators' answers (also read by the evaluation app) -----------------------------------


@dataclass(frozen=True)
class ValidatorAnswer:
    question_id: int
    validator_id: int
    chosen_index: int | None  # in the author's order; None: no pick
    correct_index: int  # the question's current answer key
    is_correct: bool
    categories: tuple[str, ...]  # the question's categories
    validator_categories: tuple[str, ...]
    flags: tuple[str, ...]
    seconds_spent: int
    question_status: str


def validation_answers(*, round_: Round | None = None, question_ids=None) -> list[ValidatorAnswer]:
    """Every validation as a plain record, by question then time; the evaluation app reads these
    for human accuracy per category (docs/quality.md)."""
    validations = Validation.objects.select_related("question").order_by("question_id", "created_at", "id")
    if round_ is not None:
        validations = validations.filter(question__round=round_)
    if question_ids is not None:
        validations = validations.filter(question_id__in=list(question_ids))
    return [
        ValidatorAnswer(
            question_id=v.question_id, validator_id=v.validator_id, chosen_index=v.chosen_index,
            correct_index=v.question.correct_index,
            is_correct=v.chosen_index is not None and v.chosen_index == v.question.correct_index,
            categories=tuple(v.question.categories), validator_categories=tuple(v.categories), flags=tuple(v.flags),
            seconds_spent=v.seconds_spent, question_status=v.question.status,
        )
        for v in validations
    ]


# --- The round's quality report --------------------------------------------------------------


def status_counts(*, round_: Round) -> dict[str, int]:
    rows = Question.objects.filter(round=round_).values("status").annotate(n=Count("id"))
    counts = dict.fromkeys(QuestionStatus.values, 0)
    counts.update({row["status"]: row["n"] for row in rows})
    return counts


def _interval(result) -> dict:
    ci = result.confidence_interval()
    return {"low": _finite(ci.low), "high": _finite(ci.high)}


def _finite(value: float) -> float | None:
    return None if value != value else round(float(value), 4)  # nan -> None (JSON has no NaN)


def _accuracy_report(answers: list[ValidatorAnswer], categories: list[str]) -> dict:
    result = human_accuracy([a.is_correct for a in answers], [a.categories for a in answers])
    overall = result.overall
    per_category = [
        {"category": name, "accuracy": _finite(r.statistic), "correct": r.k, "n": r.n, "ci": _interval(r)}
        for name, r in result.per_group.items() if name in categories
    ]
    return {
        "accuracy": _finite(overall.statistic), "correct": overall.k, "n": overall.n, "ci": _interval(overall),
        "per_category": per_category,
    }


def _answer_kappa(answers: list[ValidatorAnswer]) -> dict:
    ratings: dict[int, dict[int, int]] = defaultdict(dict)
    for a in answers:
        if a.chosen_index is not None:
            ratings[a.validator_id][a.question_id] = a.chosen_index
    result = pairwise_cohen_kappa(ratings, labels=list(range(NUM_CHOICES)), min_shared=MIN_SHARED_FOR_KAPPA)
    names = dict(User.objects.filter(pk__in=list(ratings)).values_list("pk", "username"))
    pairs = [
        {"a": names.get(p.rater_a), "b": names.get(p.rater_b), "kappa": _finite(p.result.statistic), "n": p.result.n,
         "ci": _interval(p.result)}
        for p in result.pairs
    ]
    return {"mean": _finite(result.statistic), "pairs": pairs, "min_shared": MIN_SHARED_FOR_KAPPA}


def _category_kappa(round_: Round, answers: list[ValidatorAnswer]) -> dict:
    """Fleiss' kappa of category labels: each (question, category) is an item the author and
    the first ``validations_required`` validators marked present or absent."""
    raters = round_.validations_required + 1
    by_question: dict[int, list[ValidatorAnswer]] = defaultdict(list)
    for a in answers:
        by_question[a.question_id].append(a)
    offered = list(round_.categories)
    rows, per_category_rows = [], defaultdict(list)
    for question_answers in by_question.values():
        if len(question_answers) < raters - 1:
            continue
        label_sets = [set(question_answers[0].categories)] + [set(a.validator_categories) for a in question_answers[: raters - 1]]
        for category in offered:
            row = ["yes" if category in labels else "no" for labels in label_sets]
            rows.append(row)
            per_category_rows[category].append(row)
    if not rows:
        return {"kappa": None, "items": 0, "raters": raters, "per_category": []}

    def kappa(table_rows: list[list[str]]) -> float | None:
        return _finite(fleiss_kappa(rating_counts(table_rows, ("yes", "no"))).statistic)

    return {
        "kappa": kappa(rows), "items": len(rows), "questions": len(rows) // max(len(offered), 1), "raters": raters,
        "per_category": [{"category": c, "kappa": kappa(r), "items": len(r)} for c, r in per_category_rows.items()],
    }


def _validator_stats(answers: list[ValidatorAnswer]) -> list[dict]:
    by_validator: dict[int, list[ValidatorAnswer]] = defaultdict(list)
    for a in answers:
        by_validator[a.validator_id].append(a)
    names = dict(User.objects.filter(pk__in=list(by_validator)).values_list("pk", "username"))
    stats = [
        {
            "validator": names.get(pk, str(pk)), "validations": len(rows),
            "median_seconds": statistics.median(r.seconds_spent for r in rows),
            "accuracy": round(sum(r.is_correct for r in rows) / len(rows), 4),
            "flags": sum(len(r.flags) for r in rows),
        }
        for pk, rows in by_validator.items()
    ]
    stats.sort(key=lambda s: (-s["validations"], s["validator"]))
    return stats


def round_quality_report(*, round_: Round) -> dict:
    """Status counts, human accuracy, agreement, validators' workload and speed, the coach's
    warnings and near-duplicates of a round (the quality page and its API)."""
    answers = validation_answers(round_=round_)
    return {
        "round": round_.name,
        "status": status_counts(round_=round_),
        "validations": len(answers),
        "human_accuracy": _accuracy_report(answers, list(round_.categories)),
        "answer_agreement": _answer_kappa(answers),
        "category_agreement": _category_kappa(round_, answers),
        "validators": _validator_stats(answers),
        "coach": coach.coach_report(round_=round_),
        "duplicates_flagged": duplicates.duplicate_flag_counts(round_=round_),
        "open_appeals": Appeal.objects.filter(question__round=round_, status=Appeal.Status.OPEN).count(),
        "flags": _flag_counts(round_),
    }


def _flag_counts(round_: Round) -> dict[str, int]:
    counts = dict.fromkeys(Validation.Flag.values, 0)
    for flags in Validation.objects.filter(question__round=round_).exclude(flags=[]).values_list("flags", flat=True):
        for flag in flags:
            counts[flag] = counts.get(flag, 0) + 1
    return counts


def author_questions_with_status(*, user: User) -> QuerySet[Question]:
    """The author's questions with their appeal (dashboard)."""
    return selectors.questions_of_author(user=user).select_related("appeal")

