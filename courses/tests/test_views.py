"""Signing up is joining a course: the student sign-up page (``courses:signup``, served by courses)."""
import html

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import identify_hasher
from django.test import override_settings
from django.urls import reverse

from accounts.services import user_create
from courses.services import course_create

User = get_user_model()
PASSWORD = "a-long-test-password-42"


@pytest.fixture
def course(db):
    instructor = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
    return course_create(owner=instructor, name="NLP 101")


def signup_data(course, **overrides) -> dict:
    data = {
        "join_code": course.join_code.lower(),
        "username": "alice",
        "email": "",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    data.update(overrides)
    return data


@pytest.mark.django_db
class SignupTests:
    def test_signup_enrols_logs_in_and_goes_home(self, client, course):
        response = client.post(reverse("courses:signup"), signup_data(course))
        user = User.objects.get(username="alice")
        assert user.is_student and course.enrollments.filter(user=user).exists()
        assert response.url == reverse("home")  # a student's start page (tests/test_navigation_roles.py)
        assert int(client.session["_auth_user_id"]) == user.pk

    @pytest.mark.parametrize(
        ("overrides", "field", "message"),
        [
            ({"join_code": "ZZZZZZZZ"}, "join_code", "No course has this join code."),
            ({"password1": "short", "password2": "short"}, "password1", "too short"),
            ({"password2": "something-else-entirely"}, "password2", "The two passwords differ."),
            ({"username": ""}, "username", "This field is required."),
            ({"username": "bad name!"}, "username", "Enter a valid username."),
            ({"email": "not-an-email"}, "email", "Enter a valid email address."),
        ],
    )
    def test_bad_input_is_shown_per_field(self, client, course, overrides, field, message):
        response = client.post(reverse("courses:signup"), signup_data(course, **overrides))
        assert response.status_code == 200
        errors = response.context["form"].errors[field]
        assert any(message in error for error in errors), errors
        assert message in html.unescape(response.content.decode())
        assert not User.objects.filter(username="alice").exists()

    def test_every_problem_is_shown_at_once(self, client, course):
        user_create(username="Alice", password=PASSWORD)
        response = client.post(reverse("courses:signup"), signup_data(
            course, join_code="ZZZZZZZZ", password1="short", password2="different", email="not-an-email"))
        errors = response.context["form"].errors
        assert set(errors) == {"join_code", "username", "email", "password1", "password2"}
        page = html.unescape(response.content.decode())
        for message in ("No course has this join code.", "This username is taken.", "too short",
                        "The two passwords differ.", "Enter a valid email address."):
            assert message in page
        assert User.objects.count() == 2  # prof and the existing Alice

    def test_taken_username_is_explained(self, client, course):
        user_create(username="Alice", password=PASSWORD)
        response = client.post(reverse("courses:signup"), signup_data(course))
        assert "This username is taken." in response.content.decode()
        assert User.objects.filter(username__iexact="alice").count() == 1

    def test_signed_in_user_is_sent_home(self, client, course):
        client.force_login(user_create(username="bob", password=PASSWORD))
        assert client.get(reverse("courses:signup")).url == reverse("home")


@pytest.mark.django_db
def test_signup_stores_an_argon2_hash(client, course) -> None:
    # The production hasher list starts with Argon2 (accounts/tests/test_passwords.py); tests hash fast.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.Argon2PasswordHasher"]):
        response = client.post(reverse("courses:signup"), signup_data(course, username="newbie"))
        assert response.status_code == 302
        user = User.objects.get(username="newbie")
        assert identify_hasher(user.password).algorithm == "argon2" and user.check_password(PASSWORD)


@pytest.mark.django_db
def test_the_sign_in_page_and_a_visitors_menu_lead_to_sign_up(client):
    # The courses app's panel under the sign-in form and its link in the menu (courses/panels.py).
    page = client.get(reverse("accounts:login")).content.decode()
    assert f'New student? <a href="{reverse("courses:signup")}">Sign up with your course\'s join code</a>.' in page
    assert f'<li><a href="{reverse("courses:signup")}">Sign up</a></li>' in page
