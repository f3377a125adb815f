"""Template helpers of the crowdworker pages: digits in the interface language.

Persian text writes numbers in Persian digits (۰–۹); Django's localisation keeps ASCII digits,
so ``{{ value|local_digits }}`` converts them when the active language is Persian (``core.i18n``).
"""
from django import template

from core.templatetags.core_i18n import local_digits

register = template.Library()
register.filter("local_digits", local_digits)  # the worker templates load this library only


@register.filter
def minutes(seconds: int) -> int:
    """Whole minutes of a time in seconds (rounded half up), for "about N minutes"."""
    return (int(seconds) + 30) // 60
