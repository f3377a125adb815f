"""Input checking: what people type, cleaned before any service stores it.

Neither a read nor a write, so not in ``services/`` or ``selectors/``: the authoring form, the
API, the websocket drafts, the review's edits and imports share ``clean_question``; the quality
loop's free texts (comments, reasons, appeals) go through ``clean_free_text``. Every failure is a
``ValidationError`` keyed by field, with a message a student understands; ``first_message`` turns
one into a single line (websocket, CLI, flash messages). Text follows the one rule of
``core.validators`` (no NUL, no lone surrogate), as the API's fields do.
"""
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError

from collector.models import LETTERS, NUM_CHOICES
from core.validators import text_problem, validate_text
from mlcore.configs import CATEGORIES


@dataclass(frozen=True)
class CleanQuestion:
    prompt: str
    choices: tuple[str, ...]
    answer: int | None
    categories: tuple[str, ...]


def _clean_text(value: Any, *, label: str, limit: int) -> str:
    if not isinstance(value, str):
        raise ValidationError(f"{label} must be text.")
    validate_text(value)
    text = value.strip()
    if not text:
        raise ValidationError(f"{label} is empty.")
    if len(text) > limit:
        raise ValidationError(f"{label} is too long ({len(text)} characters; at most {limit}).")
    return text


def _clean_choices(choices: Any) -> tuple[str, ...]:
    if not isinstance(choices, (list, tuple)):
        raise ValidationError({"choices": f"Give exactly {NUM_CHOICES} completions as a list."})
    if len(choices) != NUM_CHOICES:
        raise ValidationError({"choices": f"Give exactly {NUM_CHOICES} completions, not {len(choices)}."})
    cleaned, errors = [], {}
    for position, choice in enumerate(choices):
        try:
            cleaned.append(
                _clean_text(choice, label=f"Completion {LETTERS[position]}", limit=settings.STUMPER_MAX_CHOICE_CHARS)
            )
        except ValidationError as error:
            errors[f"choice_{position}"] = error.messages
    if errors:
        raise ValidationError(errors)
    seen: dict[str, int] = {}
    for position, choice in enumerate(cleaned):
        key = " ".join(choice.casefold().split())
        if key in seen:
            raise ValidationError(
                {f"choice_{position}": f"Completion {LETTERS[position]} repeats completion {LETTERS[seen[key]]}."}
            )
        seen[key] = position
    return tuple(cleaned)


def _clean_answer(answer: Any, *, required: bool) -> int | None:
    if answer is None or answer == "":
        if required:
            raise ValidationError({"answer": "Mark which completion is the right one."})
        return None
    if isinstance(answer, bool) or not isinstance(answer, int):
        try:
            answer = int(str(answer))
        except ValueError:
            raise ValidationError({"answer": "The right answer must be a number from 0 to 3."}) from None
    if not 0 <= answer < NUM_CHOICES:
        raise ValidationError({"answer": f"The right answer must be between 0 and {NUM_CHOICES - 1}."})
    return answer


def _clean_categories(categories: Any, allowed: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    if categories is None:
        return ()
    if isinstance(categories, str) or not isinstance(categories, (list, tuple)):
        raise ValidationError({"categories": "Categories must be a list."})
    unknown = [c for c in categories if c not in CATEGORIES]
    if unknown:
        raise ValidationError({"categories": f"Unknown categories: {', '.join(map(str, unknown))}."})
    not_offered = [c for c in categories if c not in allowed]
    if not_offered:
        raise ValidationError({"categories": f"Not offered in this round: {', '.join(not_offered)}."})
    return tuple(c for c in CATEGORIES if c in categories)  # canonical order, no repeats


def clean_question(
    *,
    prompt: Any,
    choices: Any,
    answer: Any,
    categories: Any = None,
    allowed_categories: list[str] | tuple[str, ...] = CATEGORIES,
    answer_required: bool = True,
) -> CleanQuestion:
    """Validate one question (or draft) and return it stripped and normalised."""
    errors: dict[str, list[str]] = {}
    cleaned: dict[str, Any] = {}
    steps = {
        "prompt": lambda: _clean_text(prompt, label="The prompt", limit=settings.STUMPER_MAX_PROMPT_CHARS),
        "choices": lambda: _clean_choices(choices),
        "answer": lambda: _clean_answer(answer, required=answer_required),
        "categories": lambda: _clean_categories(categories, allowed_categories),
    }
    for field, step in steps.items():
        try:
            cleaned[field] = step()
        except ValidationError as error:
            if hasattr(error, "error_dict"):
                for key, messages in error.message_dict.items():
                    errors.setdefault(key, []).extend(messages)
            else:
                errors.setdefault(field, []).extend(error.messages)
    if errors:
        raise ValidationError(errors)
    return CleanQuestion(**cleaned)


def clean_free_text(value, *, field: str, label: str, limit: int, required: bool) -> str:
    """``value`` stripped; a ``ValidationError`` on ``field`` unless it is text within ``limit`` (and given, if ``required``)."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationError({field: f"{label} must be text."})
    problem = text_problem(value)
    if problem is not None:
        raise ValidationError({field: problem})
    text = value.strip()
    if required and not text:
        raise ValidationError({field: f"{label} is required."})
    if len(text) > limit:
        raise ValidationError({field: f"{label} is too long ({len(text)} characters; at most {limit})."})
    return text


def first_message(error: ValidationError) -> str:
    """One readable line for places that show a single message (websocket, CLI)."""
    if hasattr(error, "error_dict"):
        return " ".join(message for messages in error.message_dict.values() for message in messages)
    return " ".join(error.messages)


def import_file_text(upload) -> str:
    """An uploaded import file (a file object) as text, read only just past the import limit: a
    larger file stays over it, so that the import service refuses it for its size with its own
    message, and nothing more is read. A ``ValidationError`` when it is not UTF-8 text."""
    raw = upload.read(settings.STUMPER_IMPORT_MAX_BYTES + 1)
    if len(raw) > settings.STUMPER_IMPORT_MAX_BYTES:
        return raw.decode("utf-8", errors="replace")  # still over the limit, so still refused
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValidationError("The file is not UTF-8 text.") from None
