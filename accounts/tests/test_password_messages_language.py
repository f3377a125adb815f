"""The password rules a worker reads when choosing a password (reset, change) in their language:
Django's own Persian catalogue lacks the minimum-length message, which ``accounts.passwords`` supplies."""
import re

import pytest
from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.utils import translation

from accounts.tests.factories import make_user

LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def _errors(password: str, user=None) -> list[str]:
    with pytest.raises(ValidationError) as raised:
        password_validation.validate_password(password, user)
    return raised.value.messages


@pytest.mark.django_db
@pytest.mark.parametrize("password", ["ab1", "12345", "password"])
def test_every_password_rule_is_persian_with_persian_digits(password):
    with translation.override("fa"):
        messages = _errors(password) + password_validation.password_validators_help_texts()
    assert messages
    for message in messages:
        assert not LATIN_WORD.search(message), message
        assert not re.search(r"[0-9]", message), message  # ۸, not 8
    with translation.override("fa"):
        assert "۸" in " ".join(_errors("ab1"))


@pytest.mark.django_db
def test_english_keeps_django_wording_and_plural():
    with translation.override("en"):
        assert _errors("ab1")[0] == "This password is too short. It must contain at least 8 characters."
        with pytest.MonkeyPatch.context() as patch:
            validator = next(v for v in password_validation.get_default_password_validators()
                             if type(v).__name__ == "MinimumLengthValidator")
            patch.setattr(validator, "min_length", 1)
            assert validator.get_help_text() == "Your password must contain at least 1 character."


@pytest.mark.django_db
def test_similarity_rule_still_applies_in_persian():
    user = make_user("mina-worker")
    with translation.override("fa"):
        assert any(not LATIN_WORD.search(m) for m in _errors("mina-worker", user))
