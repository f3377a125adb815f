"""Template filters for any page or email in a language: ``{{ value|local_digits }}`` writes the
number in the digits of the active language (Persian: ۰–۹; ``core.i18n``)."""
from django import template

from core.i18n import digits

register = template.Library()


@register.filter
def local_digits(value: object) -> str:
    """``value`` as text, with Persian digits when the active language is Persian."""
    return digits(value)
