"""Small display filters of the Stumper pages."""
from django import template

from collector.presentation.format import duration as _duration

register = template.Library()


@register.filter
def duration(seconds: int) -> str:
    """Seconds as ``m:ss`` (``h:mm:ss`` past an hour)."""
    return _duration(seconds)
