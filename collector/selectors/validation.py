"""Reads of blind validation: who may validate what, the validation queue, the blind question a
validator sees, and validators' answers (also read by the evaluation app)."""
import random
import time
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from accounts.models import User
from collector.models import LETTERS, NUM_CHOICES, PeerValidation, Question, QuestionStatus, Round, Validation
from collector.selectors.item_quality import quality_rank, round_item_quality
from collector.selectors.rounds import rounds_for_user
from core.exceptions import AccessError
from courses.models import Enrollment
from courses.selectors import (
    CoursePeople,
    course_people_counts,
    courses_assisted_by,
    courses_managed_by,
    user_validates_anytime,
)

TOKEN_SALT = "collector.validation"


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
    if user_validates_anytime(user=user, course=round_.course):
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
    assisted = courses_assisted_by(user=user).values("pk")
    rounds = (Round.objects.filter(Q(pk__in=rounds_for_user(user=user).values("pk")) | Q(course__in=assisted))
              .select_related("course").order_by("-created_at"))
    anytime = {*courses_managed_by(user=user).values_list("pk", flat=True), *assisted.values_list("pk", flat=True)}
    return [r for r in rounds if r.course_id in anytime or r.students_may_validate()]


def validation_queue(*, user: User, round_: Round | None = None, promising_first: bool = False) -> QuerySet[Question]:
    """Questions awaiting validation that ``user`` may validate and hasn't: fewest validations
    first, then oldest, so every question gets its validators before any gets extra ones.

    ``promising_first`` (one round only) puts the round's best item quality first instead
    (``selectors.item_quality``), then as above; without scores yet the order is unchanged.
    """
    rounds = [r for r in rounds_to_validate(user=user) if round_ is None or r.pk == round_.pk]
    queue = (
        Question.objects.filter(round__in=rounds, status=QuestionStatus.PENDING)
        .exclude(author=user)
        .exclude(validations__validator=user)
        .select_related("round", "round__course")
        .annotate(n_validations=Count("validations", distinct=True))
        .order_by("n_validations", "created_at", "id")
    )
    if promising_first and round_ is not None:
        rank = quality_rank(round_item_quality(round_=round_))
        if rank is not None:
            queue = queue.order_by(rank, "n_validations", "created_at", "id")
    return queue


def validation_next(*, user: User, round_: Round | None = None, skip: tuple[int, ...] = (),
                    promising_first: bool = False) -> Question | None:
    return validation_queue(user=user, round_=round_, promising_first=promising_first).exclude(pk__in=skip).first()


@dataclass(frozen=True)
class ValidatorCapacity:
    """How many people can validate a student's question of a round, against how many must agree.

    Teaching staff (owner, co-instructors, teaching assistants) validate at any time; the other
    students of the course when the round's ``peer_validation`` lets them; never the author.
    """

    required: int
    staff: int
    students: int
    peer_validation: str
    has_close: bool  # "after_close" needs a closing time, or students never validate
    closed: bool

    @property
    def while_open(self) -> int:
        """Validators a student's question can have while the round is open."""
        return self.staff + (self._peers if self.peer_validation == PeerValidation.ALWAYS else 0)

    @property
    def at_most(self) -> int:
        """Validators it can ever have (after the round closes, where students validate then)."""
        later = self.peer_validation == PeerValidation.AFTER_CLOSE and self.has_close
        return self.while_open + (self._peers if later else 0)

    @property
    def _peers(self) -> int:
        return max(self.students - 1, 0)

    @property
    def impossible(self) -> bool:
        """No question can ever be accepted by validation."""
        return self.required > self.at_most

    @property
    def waits_for_close(self) -> bool:
        """No question can be accepted before the round closes (students validate only then)."""
        return not self.closed and not self.impossible and self.required > self.while_open


def validator_capacity(*, round_: Round, people: CoursePeople) -> ValidatorCapacity:
    return ValidatorCapacity(required=round_.validations_required, staff=people.staff, students=people.students,
                             peer_validation=round_.peer_validation, has_close=round_.closes_at is not None,
                             closed=round_.closes_at is not None and round_.closes_at <= timezone.now())


def round_validator_capacity(*, round_: Round) -> ValidatorCapacity:
    """Whether the round's settings let its questions be accepted (the round page's warning)."""
    people = course_people_counts(course_ids=[round_.course_id])[round_.course_id]
    return validator_capacity(round_=round_, people=people)


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
