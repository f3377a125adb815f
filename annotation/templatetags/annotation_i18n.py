"""Template helpers of the crowdworker pages: digits in the interface language.

Persian text writes numbers in Persian digits (۰–۹); Django's localisation keeps ASCII digits,
so ``{{ value|local_digits }}`` converts them when the active language is Persian (``core.i18n``).
"""
from django import template

from core.i18n import digits

register = template.Library()


@register.filter
def local_digits(value: object) -> str:
    """``value`` as text, with Persian digits when the page is in Persian."""
    return digits(value)


@register.filter
def minutes(seconds: int) -> int:
    """Whole minutes of a time in seconds (rounded half up), for "about N minutes"."""
    return (int(seconds) + 30) // 60
