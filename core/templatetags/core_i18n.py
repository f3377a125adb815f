"""Template filters for any page or email in a language: ``{{ value|local_digits }}`` writes the
number in the digits of the active language (Persian: ۰–۹; ``core.i18n``); ``{{ fraction|percent:1 }}``
is the one percent filter of every page."""
import math

from django import template

from core.i18n import digits

register = template.Library()


@register.filter
def local_digits(value: object) -> str:
    """``value`` as text, with Persian digits when the active language is Persian."""
    return digits(value)


@register.filter
def percent(value: float | None, decimals: int = 0) -> str:
    """A 0..1 fraction as a percentage with ``decimals`` decimals (``0.125|percent:1`` is "12.5%"), in the
    active language's digits; an em dash when unknown (None, NaN, or a missing key: "")."""
    if value is None or value == "" or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return digits(f"{100 * float(value):.{int(decimals)}f}%")
