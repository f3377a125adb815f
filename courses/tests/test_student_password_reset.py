"""An instructor sends a password-reset link to a student of their own course, and only there."""
import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from accounts.services import user_create
from courses import services
from courses.panels import course_page_url

PASSWORD = "a-long-test-password-42"


def make_user(username: str, role: str = User.Role.STUDENT, email: str = "") -> User:
    return user_create(username=username, password=PASSWORD, role=role, email=email)


@pytest.fixture
def classroom(db):
    prof = make_user("prof", role=User.Role.INSTRUCTOR)
    course = services.course_create(owner=prof, name="NLP 101")
    alice = make_user("alice", email="alice@example.edu")
    services.course_join(user=alice, join_code=course.join_code)
    return prof, course, alice


def url(course, student) -> str:
    return reverse("courses:student_password_reset", args=[course.pk, student.pk])


@pytest.mark.django_db
class StudentPasswordResetTests:
    def test_instructor_sends_the_student_a_reset_link(self, client, classroom):
        prof, course, alice = classroom
        client.force_login(prof)
        page = client.get(course_page_url(course)).content.decode()
        assert url(course, alice) in page
        response = client.post(url(course, alice), follow=True)
        assert "A password-reset link is on its way to alice" in response.content.decode()
        assert [m.to for m in mail.outbox] == [["alice@example.edu"]]
        assert "prof, your instructor, asked" in mail.outbox[0].body
        assert "/accounts/password/reset/" in mail.outbox[0].body

    def test_another_instructor_may_not(self, client, classroom):
        _, course, alice = classroom
        other = make_user("other", role=User.Role.INSTRUCTOR)
        services.course_create(owner=other, name="Other course")
        client.force_login(other)
        assert client.post(url(course, alice)).status_code == 403
        assert mail.outbox == []

    def test_only_students_of_that_course(self, client, classroom):
        prof, course, _ = classroom
        own_other_course = services.course_create(owner=prof, name="Second course")
        bob = make_user("bob", email="bob@example.edu")
        services.course_join(user=bob, join_code=own_other_course.join_code)
        outsider = make_user("eve", email="eve@example.edu")
        client.force_login(prof)
        assert client.post(url(course, bob)).status_code == 403  # bob is in prof's other course only
        assert client.post(url(course, outsider)).status_code == 403
        assert client.post(url(course, prof)).status_code == 403
        assert mail.outbox == []

    def test_students_and_crowdworkers_may_not(self, client, classroom):
        _, course, alice = classroom
        for user in (alice, make_user("cw", role=User.Role.CROWDWORKER)):
            client.force_login(user)
            assert client.post(url(course, alice)).status_code == 403
        assert mail.outbox == []

    def test_a_student_without_email_is_explained(self, client, classroom):
        prof, course, _ = classroom
        bob = make_user("bob")
        services.course_join(user=bob, join_code=course.join_code)
        client.force_login(prof)
        page = client.get(course_page_url(course)).content.decode()
        assert url(course, bob) not in page and "no email" in page
        response = client.post(url(course, bob), follow=True)
        assert "bob has no email address on file" in response.content.decode()
        assert mail.outbox == []
