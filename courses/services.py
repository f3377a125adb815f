"""Writes of courses: creating a course, joining it with its code, a student's sign-up, and its
teaching staff (co-instructors and teaching assistants, the instructor invite link)."""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from accounts.services import user_create, user_role_set
from accounts.user_checks import user_create_errors
from core.exceptions import AccessError
from courses.models import Course, Enrollment, StaffRole, new_invite_token
from courses.selectors import instructor_refusal

UNKNOWN_CODE = gettext_lazy("No course has this join code. Check it with your instructor.")


@transaction.atomic
def course_create(*, owner: User, name: str, join_code: str | None = None) -> Course:
    """Create a course owned (and taught) by ``owner``; a join code is generated unless given."""
    if not owner.is_instructor:
        raise AccessError("Only instructors can create courses.")
    course = Course(owner=owner, name=(name or "").strip())
    if join_code:
        course.join_code = join_code.strip().upper()
    course.full_clean()
    course.save()
    course.instructors.add(owner)
    return course


@transaction.atomic
def course_join(*, user: User, join_code: str) -> Enrollment:
    """Enrol ``user`` in the course with this join code (joining twice is harmless)."""
    code = (join_code or "").strip().upper()
    course = Course.objects.filter(join_code=code).first()
    if course is None:
        raise ValidationError({"join_code": UNKNOWN_CODE})
    # A student validates classmates only as the round allows: joining ends being the course's TA.
    course.teaching_assistants.remove(user)
    enrollment, _ = Enrollment.objects.get_or_create(course=course, user=user)
    return enrollment


def student_register_errors(*, username: str, password: str, join_code: str, email: str = "") -> dict[str, list[str]]:
    """Every reason a sign-up would be refused, by field (empty: it would pass), so the form
    shows them all at once instead of one per attempt."""
    errors = user_create_errors(username=username, password=password, email=email, role=User.Role.STUDENT)
    if not Course.objects.filter(join_code=(join_code or "").strip().upper()).exists():
        errors["join_code"] = [UNKNOWN_CODE]
    return errors


@transaction.atomic
def student_register(*, username: str, password: str, join_code: str, email: str = "") -> User:
    """Sign a student up and enrol them, or do neither."""
    errors = student_register_errors(username=username, password=password, join_code=join_code, email=email)
    if errors:
        raise ValidationError(errors)
    user = user_create(username=username, password=password, email=email, role=User.Role.STUDENT)
    course_join(user=user, join_code=join_code)
    return user


DEAD_INVITE = gettext_lazy("This instructor invite link does not work: it was withdrawn or replaced by a new one. "
                           "Ask the course's instructor for the current link.")


def _account_named(who: str) -> User:
    """The account with this username or e-mail (either case), or a ValidationError on ``who``."""
    who = (who or "").strip()
    user = User.objects.filter(username__iexact=who).first() if who else None
    if user is None and "@" in who:
        matches = list(User.objects.filter(email__iexact=who)[:2])
        if len(matches) > 1:
            raise ValidationError({"who": _("Several accounts use %(who)s: enter the username instead.") % {"who": who}})
        user = matches[0] if matches else None
    if user is None:
        raise ValidationError({"who": _("No account has this username or e-mail. To add someone without an "
                                        "account, send them the instructor invite link.")})
    return user


def _instructor_add(course: Course, user: User) -> None:
    refusal = instructor_refusal(course=course, user=user)
    if refusal:
        raise ValidationError({"who": refusal})
    if not user.is_instructor:
        # Teaching needs an instructor account (its navigation, course list and inbox); this is
        # the step that otherwise took /admin or an LMS launch.
        user_role_set(user=user, role=User.Role.INSTRUCTOR)
    course.teaching_assistants.remove(user)  # a teaching assistant promoted
    course.instructors.add(user)


def _assistant_add(course: Course, user: User) -> None:
    if course.owner_id == user.pk or course.instructors.filter(pk=user.pk).exists():
        raise ValidationError({"who": _("%(name)s is already an instructor of this course, and "
                                        "instructors validate anyway.") % {"name": user.username}})
    if user.role == User.Role.CROWDWORKER and not user.is_instructor:
        raise ValidationError({"who": _("%(name)s is a crowdworker account, which does not validate course "
                                        "questions: add a student or instructor account.") % {"name": user.username}})
    if course.enrollments.filter(user=user).exists():
        raise ValidationError({"who": _("%(name)s is a student of this course: a teaching assistant validates "
                                        "classmates' questions while the round is open, so cannot be one.")
                                      % {"name": user.username}})
    course.teaching_assistants.add(user)


@transaction.atomic
def course_staff_add(*, course: Course, who: str, role: str) -> User:
    """Make the account named ``who`` (username or e-mail) a co-instructor or teaching assistant.

    A co-instructor's account becomes an instructor account if it is not one (never a student's:
    it would lose its dashboard); a teaching assistant's keeps its role.
    """
    if role not in (StaffRole.INSTRUCTOR, StaffRole.TA):
        raise ValidationError({"role": _("Choose co-instructor or teaching assistant.")})
    user = _account_named(who)
    if role == StaffRole.INSTRUCTOR:
        already = course.owner_id == user.pk or course.instructors.filter(pk=user.pk).exists()
    else:
        already = course.teaching_assistants.filter(pk=user.pk).exists()
    if already:
        raise ValidationError({"who": _("%(name)s is already a %(role)s of this course.")
                                      % {"name": user.username, "role": StaffRole(role).label.lower()}})
    (_instructor_add if role == StaffRole.INSTRUCTOR else _assistant_add)(course, user)
    return user


@transaction.atomic
def course_staff_remove(*, course: Course, user_id: int) -> User:
    """Take a co-instructor or teaching assistant off the course; their account keeps its role."""
    user = User.objects.filter(pk=user_id).first()
    if user is not None and user.pk == course.owner_id:
        raise ValidationError(_("The course's owner stays in the course."))
    if user is None or not (course.instructors.filter(pk=user.pk).exists()
                            or course.teaching_assistants.filter(pk=user.pk).exists()):
        raise ValidationError(_("This account is not on the course's teaching staff."))
    course.instructors.remove(user)
    course.teaching_assistants.remove(user)
    return user


@transaction.atomic
def course_instructor_invite_renew(*, course: Course) -> Course:
    """A new instructor invite link; the previous one stops working."""
    course.instructor_invite_token = new_invite_token()
    course.save(update_fields=["instructor_invite_token"])
    return course


@transaction.atomic
def course_instructor_invite_revoke(*, course: Course) -> Course:
    course.instructor_invite_token = None
    course.save(update_fields=["instructor_invite_token"])
    return course


@transaction.atomic
def course_instructor_invite_accept(*, token: str, user: User) -> Course:
    """Make ``user`` a co-instructor of the course whose link this is (opening it twice is harmless)."""
    # Never filter on an empty token: ``instructor_invite_token=None`` would match every course without a link.
    course = Course.objects.select_for_update().filter(instructor_invite_token=token).first() if token else None
    if course is None:
        raise ValidationError(DEAD_INVITE)
    if course.owner_id != user.pk and not course.instructors.filter(pk=user.pk).exists():
        try:
            _instructor_add(course, user)
        except ValidationError as error:
            raise ValidationError(error.message_dict["who"]) from None
    return course


@transaction.atomic
def course_instructor_invite_signup(*, token: str, username: str, password: str, email: str = "") -> User:
    """Make an instructor account and a co-instructor of the link's course, both or neither."""
    if not token or not Course.objects.filter(instructor_invite_token=token).exists():
        raise ValidationError(DEAD_INVITE)
    errors = user_create_errors(username=username, password=password, email=email, role=User.Role.INSTRUCTOR)
    if errors:
        raise ValidationError(errors)
    user = user_create(username=username, password=password, email=email, role=User.Role.INSTRUCTOR)
    course_instructor_invite_accept(token=token, user=user)
    return user
