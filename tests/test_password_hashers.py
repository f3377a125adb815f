"""The project's password hashers (``PASSWORD_HASHERS`` in config/settings/base.py): argon2 first,
and an account whose password is still an older PBKDF2 hash signs in and is upgraded to argon2.

The test settings hash with MD5 for speed, so these tests put the project's list back.
"""
import pytest
from django.contrib.auth.hashers import get_hasher, identify_hasher, make_password
from django.test import override_settings
from django.urls import reverse

from accounts.models import User
from accounts.services import user_create
from accounts.tests.factories import PASSWORD
from config.settings import base


def test_argon2_comes_first_and_older_hashes_still_verify() -> None:
    assert base.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"
    assert "django.contrib.auth.hashers.PBKDF2PasswordHasher" in base.PASSWORD_HASHERS[1:]
    with override_settings(PASSWORD_HASHERS=base.PASSWORD_HASHERS):
        assert get_hasher().algorithm == "argon2"  # argon2-cffi is installed, so it is really used


@pytest.mark.django_db
def test_a_pbkdf2_hash_signs_in_and_is_upgraded_to_argon2(client) -> None:
    with override_settings(PASSWORD_HASHERS=base.PASSWORD_HASHERS):
        user = user_create(username="old", password=PASSWORD)
        User.objects.filter(pk=user.pk).update(password=make_password(PASSWORD, hasher="pbkdf2_sha256"))
        wrong = client.post(reverse("accounts:login"), {"username": "old", "password": "not-it-at-all"})
        assert wrong.status_code == 200
        assert identify_hasher(User.objects.get(pk=user.pk).password).algorithm == "pbkdf2_sha256"
        response = client.post(reverse("accounts:login"), {"username": "old", "password": PASSWORD})
        assert response.status_code == 302
        stored = User.objects.get(pk=user.pk).password
        assert identify_hasher(stored).algorithm == "argon2"
        assert User.objects.get(pk=user.pk).check_password(PASSWORD)
