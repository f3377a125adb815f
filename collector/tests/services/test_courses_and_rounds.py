from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts.models import User
from collector.models import Question
from collector.services.imports import codah_import
from collector.services.rounds import round_create, round_set_live_model
from core.exceptions import AccessError, ImportFailed
from courses.models import Enrollment
from courses.services import course_create, course_join, student_register
from modelhub.models import ModelVersion
from modelhub.services import DEFAULT_MODEL_NAME, model_version_register


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


@pytest.mark.django_db
def test_round_defaults_to_model_version_zero(course):
    round_ = round_create(course=course, name="r0")
    assert round_.live_model.name == DEFAULT_MODEL_NAME
    assert round_.live_model.kind == ModelVersion.Kind.ZERO_SHOT
    assert round_.is_open()


@pytest.mark.django_db
def test_round_name_must_be_command_friendly_and_dates_ordered(course):
    with pytest.raises(ValidationError):
        round_create(course=course, name="has spaces")
    now = timezone.now()
    with pytest.raises(ValidationError):
        round_create(course=course, name="r1", opens_at=now, closes_at=now - timedelta(hours=1))


@pytest.mark.django_db
def test_model_version_register_is_idempotent_on_name():
    first = model_version_register(name="v1", kind="multiple_choice", path="/a")
    second = model_version_register(name="v1", kind="multiple_choice", path="/b", metrics={"acc": 0.5})
    assert first.pk == second.pk
    assert second.path == "/b"


@pytest.mark.django_db
def test_live_model_must_be_multiple_choice(open_round):
    qa = model_version_register(name="qa", kind="question_answering", path="/qa")
    with pytest.raises(ValidationError):
        round_set_live_model(round_=open_round, model_version=qa)


GOOD_ROWS = "i\tHe kicked the bucket. He\tdied.\tlives.\tdances.\tsings.\t0\n\tShe smiled. She\tfrowned.\tgrinned.\twept.\tslept.\t1\n"


@pytest.mark.django_db
def test_codah_import_maps_categories_and_empty_to_other(open_round, instructor):
    questions = codah_import(round_=open_round, text=GOOD_ROWS, author=instructor)
    assert [q.categories for q in questions] == [["idioms"], ["other"]]
    assert Question.objects.filter(source="imported").count() == 2


@pytest.mark.django_db
def test_codah_import_is_all_or_nothing(open_round, instructor):
    bad = GOOD_ROWS + "o\tBroken row\tonly\tthree\t0\n"
    with pytest.raises(ImportFailed) as caught:
        codah_import(round_=open_round, text=bad, author=instructor)
    assert caught.value.errors[0][0] == 3
    assert Question.objects.count() == 0


@pytest.mark.django_db
def test_codah_import_reports_file_lines_past_blank_lines(open_round, instructor):
    open_round.categories = ["other"]
    open_round.save()
    text = "o\tA. He\tb.\tc.\td.\te.\t0\n\n\ni\tF. She\tg.\th.\ti.\tj.\t1\n"
    with pytest.raises(ImportFailed) as caught:
        codah_import(round_=open_round, text=text, author=instructor)
    assert caught.value.errors == [(4, "category 'idioms' is not offered in round round-1")]


@pytest.mark.django_db
def test_codah_import_of_repeated_completions_needs_the_flag(open_round, instructor):
    text = "o\tA. He\tb.\tb.\td.\te.\t0\n"
    with pytest.raises(ImportFailed):
        codah_import(round_=open_round, text=text, author=instructor)
    assert len(codah_import(round_=open_round, text=text, author=instructor, allow_duplicate_choices=True)) == 1
