"""Small display filters of the Stumper pages."""
from django import template

from collector.presentation.format import duration as _duration

register = template.Library()


@register.filter
def duration(seconds: int) -> str:
    """Seconds as ``m:ss`` (``h:mm:ss`` past an hour)."""
    return _duration(seconds)


@register.filter
def percent(value: float | None, digits: int = 0) -> str:
    """A 0..1 fraction as a percentage; an em dash when unknown (None, or a missing key: "")."""
    if value is None or value == "":
        return "—"
    return f"{100 * float(value):.{int(digits)}f}%"
