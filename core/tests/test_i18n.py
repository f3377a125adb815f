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


def test_the_one_percent_filter_takes_its_decimals_and_the_pages_digits():
    from django.template import Context, Template

    template = Template("{% load core_i18n %}{{ a|percent }} {{ a|percent:1 }} {{ none|percent }} {{ nan|percent:1 }}")
    context = Context({"a": 0.125, "none": None, "nan": float("nan")})
    assert template.render(context) == "12% 12.5% — —"  # 12.5 rounds half to even, as format() does
    with translation.override("fa"):
        assert template.render(context) == "۱۲% ۱۲.۵% — —"
