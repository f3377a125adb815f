"""A crowdworker's password-reset email is in their projects' language: Persian for a Persian
project's worker, English for everyone else; from the sign-in page's "forgot your password" and
from an instructor's "send reset link" alike (accounts.languages + annotation.receivers)."""
import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from accounts.services import user_create
from annotation.selectors.worker_home import worker_projects_language
from annotation.services.authoring import session_start_next
from annotation.tests.factories import EN_CONTEXT, FA_CONTEXT, add_paragraphs, make_project
from courses.services import course_create, course_join

PASSWORD = "a-long-test-password-42"
PERSIAN_SUBJECT = "بازنشانی گذرواژهٔ Stumper شما"

pytestmark = pytest.mark.django_db


@pytest.fixture
def projects(instructor):
    fa = make_project(instructor, name="tehran", language="fa")
    en = make_project(instructor, name="nile")
    add_paragraphs(fa, [FA_CONTEXT], title="تهران")
    add_paragraphs(en, [EN_CONTEXT])
    return fa, en


def worker(name: str, project=None) -> User:
    user = user_create(username=name, password=PASSWORD, role=User.Role.CROWDWORKER, email=f"{name}@example.org")
    if project is not None:
        session_start_next(user=user, project=project)  # works in it
    return user


def test_a_crowdworker_speaks_the_language_of_the_projects_they_work_in(projects, student):
    fa, en = projects
    assert worker_projects_language(user=worker("sara", fa)) == "fa"
    assert worker_projects_language(user=worker("tom", en)) == "en"
    assert worker_projects_language(user=worker("new")) is None  # both projects on the task list: a mix
    en.is_active = False
    en.save()
    assert worker_projects_language(user=User.objects.get(username="new")) == "fa"  # the task list's only one
    assert worker_projects_language(user=student) is None


def test_the_self_service_reset_email_is_persian_for_a_persian_projects_worker(client, projects):
    fa, en = projects
    worker("sara", fa)
    worker("tom", en)
    user_create(username="alice", password=PASSWORD, email="alice@example.edu")  # a student
    for address in ("sara@example.org", "tom@example.org", "alice@example.edu"):
        client.post(reverse("accounts:password_reset"), {"email": address})
    sara, tom, alice = mail.outbox
    assert sara.subject == PERSIAN_SUBJECT and sara.body.startswith("سلام sara،")
    assert "نام کاربری شما sara است." in sara.body
    assert tom.subject == alice.subject == "Reset your Stumper password"
    assert tom.body.startswith("Hello tom,") and alice.body.startswith("Hello alice,")


def test_the_reset_an_instructor_sends_is_persian_for_a_persian_projects_worker(client, projects, instructor):
    fa, _ = projects
    course = course_create(owner=instructor, name="NLP 101")
    alice = user_create(username="alice", password=PASSWORD, email="alice@example.edu")
    sara = worker("sara", fa)
    for user in (alice, sara):
        course_join(user=user, join_code=course.join_code)
    client.force_login(instructor)
    for user in (alice, sara):
        response = client.post(reverse("courses:student_password_reset", args=[course.pk, user.pk]))
        assert response.status_code == 302
    english, persian = mail.outbox
    assert english.subject == "Reset your Stumper password" and "prof, your instructor, asked" in english.body
    assert persian.subject == PERSIAN_SUBJECT and "prof، مدرس شما، درخواست کرده است" in persian.body
    assert "۳ روز" in persian.body  # Persian digits
