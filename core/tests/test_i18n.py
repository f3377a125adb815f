"""Digits in a language, and the language a person chose (core.i18n)."""
from django.utils import translation

from core.i18n import chosen_language, digits, local_digits


def test_local_digits():
    assert local_digits(1403, "fa") == "۱۴۰۳" and local_digits("3:05", "fa-ir") == "۳:۰۵"
    assert local_digits(12, "en") == "12"
    with translation.override("fa"):
        assert digits(2000) == "۲۰۰۰"
    with translation.override("en"):
        assert digits(2000) == "2000"


def test_the_chosen_language_is_a_known_one_from_the_cookie():
    assert chosen_language({"django_language": "fa"}) == "fa"
    assert chosen_language({"django_language": "xx"}) is None and chosen_language({}) is None
