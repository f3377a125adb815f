"""Validators the apps share: safe names, the one rule for text, and JSON errors in words.

**Text.** The REST API's ``CharField`` refuses NUL (Django's ``ProhibitNullCharactersValidator``)
and lone surrogates (DRF's ``ProhibitSurrogateCharactersValidator``): PostgreSQL cannot store
the first, no database can encode the second. :func:`text_problem` is that rule, with the same
messages, for every other way text comes in: imports (CODAH, SQuAD, articles, ambiguity files),
management commands, websocket drafts and the services' own cleaning.

**JSON** is parsed everywhere by :func:`mlcore.data.bounded_json.load_json` (depth, size and
numbers bounded); :func:`json_error_reason` words its complaint in the active language.
"""
import json
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator, RegexValidator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.i18n import digits
from mlcore.data.bounded_json import JsonLimitError

# Round names and model names become folder and file names: one safe path component.
folder_name_validator = RegexValidator(
    r"^[A-Za-z0-9][A-Za-z0-9._-]*$", "Use letters, digits, '.', '_' or '-' (no spaces)."
)

NUL_MESSAGE = ProhibitNullCharactersValidator.message  # Django's wording (and translation)
# DRF's wording, so that the API's field errors and everything else say the same.
SURROGATE_MESSAGE = gettext_lazy("Surrogate characters are not allowed: U+{code_point:X}.")


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be stored as text (a NUL, or a code point UTF-8 cannot encode), or None."""
    if "\x00" in value:
        return str(NUL_MESSAGE)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:  # only lone surrogates cannot be encoded
        return str(SURROGATE_MESSAGE).format(code_point=ord(value[error.start]))
    return None


def validate_text(value: str) -> None:
    """The text rule as a Django validator: a ``ValidationError`` with the rule's message."""
    problem = text_problem(value)
    if problem is not None:
        raise ValidationError(problem, code="invalid_text")


def text_problems(data: Any, where: str = "") -> list[tuple[str, str]]:
    """Every string in parsed JSON ``data`` (object keys too) that breaks the text rule, as
    ``(JSON path, message)``, a path such as ``data[0].paragraphs[2].context``."""
    problems: list[tuple[str, str]] = []
    todo: list[tuple[str, Any]] = [(where, data)]
    while todo:  # a loop, not recursion: the depth is bounded, but a list of strings need not be
        path, value = todo.pop()
        if isinstance(value, str):
            problem = text_problem(value)
            if problem is not None:
                problems.append((path or "top level", problem))
        elif isinstance(value, dict):
            children = []
            for key, child in value.items():
                key_path = f"{path}.{key}" if path else str(key)
                problem = text_problem(key) if isinstance(key, str) else None
                if problem is not None:
                    problems.append((f"{path or 'top level'} (a key)", problem))
                else:
                    children.append((key_path, child))
            todo.extend(reversed(children))
        elif isinstance(value, list):
            todo.extend(reversed([(f"{path}[{index}]", child) for index, child in enumerate(value)]))
    return problems


def json_error_reason(error: json.JSONDecodeError) -> str:
    """What is wrong with refused JSON: a limit's reason in the active language (its numbers in
    the language's digits), else the parser's own words."""
    if isinstance(error, JsonLimitError):
        params = {name: digits(value) if isinstance(value, int) else value for name, value in error.params.items()}
        return _(error.template) % params if params else _(error.template)
    return error.msg
