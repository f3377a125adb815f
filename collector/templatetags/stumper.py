"""Small display filters of the Stumper pages."""
from django import template

from collector.presentation.format import category_name as _category_name
from collector.presentation.format import duration as _duration

register = template.Library()


@register.filter
def duration(seconds: int) -> str:
    """Seconds as ``m:ss`` (``h:mm:ss`` past an hour)."""
    return _duration(seconds)


@register.filter
def category_name(key: str) -> str:
    """A category's name in the page's language, lower case as in a list (``negation``; Persian: ``نفی``)."""
    return _category_name(key)


@register.filter
def category_names(keys: list[str] | None) -> list[str]:
    """Each category's name in the page's language (for ``|join:", "``)."""
    return [category_name(key) for key in keys or []]
