"""``courses/services.py``, teaching staff: co-instructors and teaching assistants by name or
e-mail, taking them off, and the instructor invite link."""
import pytest
from django.core.exceptions import ValidationError

from accounts.models import User
from accounts.tests.factories import make_user
from courses.models import StaffRole
from courses.selectors import course_by_invite_token, course_people_counts, course_staff, user_manages_course
from courses.services import (
    course_create,
    course_instructor_invite_accept,
    course_instructor_invite_renew,
    course_instructor_invite_revoke,
    course_instructor_invite_signup,
    course_join,
    course_staff_add,
    course_staff_remove,
)

PASSWORD = "a-long-test-password-42"
pytestmark = pytest.mark.django_db


def _who_error(**kwargs) -> str:
    with pytest.raises(ValidationError) as caught:
        course_staff_add(**kwargs)
    return " ".join(caught.value.message_dict["who"])


def test_a_colleague_named_by_username_becomes_an_instructor_of_the_course(course):
    colleague = make_user("colleague", role=User.Role.CROWDWORKER)
    course_staff_add(course=course, who="Colleague", role=StaffRole.INSTRUCTOR)
    colleague.refresh_from_db()
    # No /admin needed: the account is an instructor's now, and it manages this course only.
    assert colleague.is_instructor and user_manages_course(user=colleague, course=course)
    other = course_create(owner=make_user("else", role=User.Role.INSTRUCTOR), name="Other")
    assert not user_manages_course(user=colleague, course=other)


def test_a_teaching_assistant_named_by_email_keeps_their_role(course):
    ta = make_user("tara", email="Tara@Example.org")
    course_staff_add(course=course, who="tara@example.org", role=StaffRole.TA)
    ta.refresh_from_db()
    assert ta.role == User.Role.STUDENT and not ta.is_instructor
    assert not user_manages_course(user=ta, course=course)
    assert [(m.user.username, m.role) for m in course_staff(course=course)] == [
        ("prof", StaffRole.OWNER), ("tara", StaffRole.TA)]
    assert course_people_counts(course_ids=[course.pk])[course.pk].staff == 2


def test_unknown_or_ambiguous_names_are_explained(course):
    assert "No account has this username or e-mail" in _who_error(course=course, who="nobody", role=StaffRole.TA)
    make_user("twin1", email="twin@example.org")
    make_user("twin2", email="twin@example.org")
    assert "enter the username" in _who_error(course=course, who="twin@example.org", role=StaffRole.TA)


def test_students_and_crowdworkers_are_refused_where_their_role_would_clash(course, student, other_course):
    assert "is a student of this course" in _who_error(course=course, who=student.username, role=StaffRole.TA)
    assert "is a student of this course" in _who_error(course=course, who=student.username,
                                                        role=StaffRole.INSTRUCTOR)
    # A student of another course would lose their dashboard as an instructor; a TA keeps it.
    assert "would lose its student dashboard" in _who_error(course=other_course, who=student.username,
                                                             role=StaffRole.INSTRUCTOR)
    course_staff_add(course=other_course, who=student.username, role=StaffRole.TA)
    make_user("cw", role=User.Role.CROWDWORKER)
    assert "crowdworker account" in _who_error(course=course, who="cw", role=StaffRole.TA)
    student.refresh_from_db()
    assert student.role == User.Role.STUDENT


def test_adding_twice_is_refused_and_a_ta_who_joins_as_student_is_a_student(course):
    ta = make_user("tara")
    course_staff_add(course=course, who="tara", role=StaffRole.TA)
    assert "already a teaching assistant" in _who_error(course=course, who="tara", role=StaffRole.TA)
    assert "already a co-instructor" in _who_error(course=course, who="prof", role=StaffRole.INSTRUCTOR)
    assert "instructors validate anyway" in _who_error(course=course, who="prof", role=StaffRole.TA)
    course_join(user=ta, join_code=course.join_code)
    assert not course.teaching_assistants.exists() and course.enrollments.filter(user=ta).exists()


def test_a_ta_made_co_instructor_is_no_longer_listed_as_ta(course):
    make_user("tara", role=User.Role.INSTRUCTOR)
    course_staff_add(course=course, who="tara", role=StaffRole.TA)
    course_staff_add(course=course, who="tara", role=StaffRole.INSTRUCTOR)
    assert [m.role for m in course_staff(course=course)] == [StaffRole.OWNER, StaffRole.INSTRUCTOR]


def test_removing_keeps_the_owner_and_the_accounts_role(course, instructor):
    colleague = make_user("colleague", role=User.Role.INSTRUCTOR)
    course_staff_add(course=course, who="colleague", role=StaffRole.INSTRUCTOR)
    course_staff_remove(course=course, user_id=colleague.pk)
    assert not user_manages_course(user=colleague, course=course)
    colleague.refresh_from_db()
    assert colleague.is_instructor
    with pytest.raises(ValidationError, match="owner stays"):
        course_staff_remove(course=course, user_id=instructor.pk)
    with pytest.raises(ValidationError, match="not on the course's teaching staff"):
        course_staff_remove(course=course, user_id=colleague.pk)


def test_the_invite_link_makes_a_co_instructor_until_renewed_or_withdrawn(course):
    assert course.instructor_invite_token is None
    first = course_instructor_invite_renew(course=course).instructor_invite_token
    second = course_instructor_invite_renew(course=course).instructor_invite_token
    assert first != second and len(second) >= 24
    assert course_by_invite_token(token=first) is None and course_by_invite_token(token=second) == course
    with pytest.raises(ValidationError, match="does not work"):
        course_instructor_invite_accept(token=first, user=make_user("late", role=User.Role.INSTRUCTOR))
    newcomer = course_instructor_invite_signup(token=second, username="newprof", password=PASSWORD)
    assert newcomer.is_instructor and user_manages_course(user=newcomer, course=course)
    course_instructor_invite_accept(token=second, user=newcomer)  # twice is harmless
    course_instructor_invite_revoke(course=course)
    with pytest.raises(ValidationError, match="does not work"):
        course_instructor_invite_signup(token=second, username="toolate", password=PASSWORD)
    assert not User.objects.filter(username="toolate").exists()
    # With no link, an empty token opens nothing (it is stored as NULL, not "").
    for token in ("", None):
        with pytest.raises(ValidationError, match="does not work"):
            course_instructor_invite_accept(token=token, user=make_user(f"empty{token}", role=User.Role.INSTRUCTOR))
    assert course.instructors.count() == 2


def test_the_invite_link_refuses_a_student_account_and_makes_no_half_account(course, student, other_course):
    token = course_instructor_invite_renew(course=other_course).instructor_invite_token
    with pytest.raises(ValidationError, match="would lose its student dashboard"):
        course_instructor_invite_accept(token=token, user=student)
    with pytest.raises(ValidationError) as weak:
        course_instructor_invite_signup(token=token, username="newprof", password="123")
    assert "password" in weak.value.message_dict and not User.objects.filter(username="newprof").exists()
