"""``courses/services.py``: creating courses, join codes, student sign-up."""
import pytest
from django.core.exceptions import ValidationError

from accounts.models import User
from core.exceptions import AccessError
from courses.models import Enrollment
from courses.services import course_create, course_join, student_register


@pytest.mark.django_db
def test_only_instructors_create_courses(student):
    with pytest.raises(AccessError):
        course_create(owner=student, name="Mine")


@pytest.mark.django_db
def test_course_gets_a_join_code_and_owner_teaches_it(instructor):
    course = course_create(owner=instructor, name="NLP")
    assert len(course.join_code) == 8
    assert course.instructors.filter(pk=instructor.pk).exists()


@pytest.mark.django_db
def test_join_code_is_case_insensitive_and_joining_twice_is_harmless(instructor, student):
    course = course_create(owner=instructor, name="NLP")
    course_join(user=student, join_code=course.join_code.lower())
    course_join(user=student, join_code=f"  {course.join_code} ")
    assert Enrollment.objects.filter(course=course, user=student).count() == 1


@pytest.mark.django_db
def test_register_with_wrong_code_creates_no_user(course):
    with pytest.raises(ValidationError) as caught:
        student_register(username="newbie", password="a-long-password-1", join_code="NOPE")
    assert "join_code" in caught.value.message_dict
    assert not User.objects.filter(username="newbie").exists()


@pytest.mark.django_db
def test_register_enrols_the_student(course):
    user = student_register(username="newbie", password="a-long-password-1", join_code=course.join_code)
    assert user.role == User.Role.STUDENT
    assert course.enrollments.filter(user=user).exists()


@pytest.mark.django_db
def test_register_with_weak_password_or_taken_name_fails_cleanly(course, student):
    with pytest.raises(ValidationError) as weak:
        student_register(username="other", password="123", join_code=course.join_code)
    assert "password" in weak.value.message_dict
    with pytest.raises(ValidationError) as taken:
        student_register(username=student.username.upper(), password="a-long-password-1", join_code=course.join_code)
    assert "username" in taken.value.message_dict
