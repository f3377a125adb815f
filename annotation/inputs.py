"""Input checking (neither a read nor a write): a worker's question and answer before anything is
stored, the owner's uploaded import files, and a ``ValidationError``'s first message for one-line displays.

One function per input shape, each raising Django's ``ValidationError`` with field keys and
messages meant to be shown as they are. Offsets arrive either as a browser selection in
UTF-16 code units (``selection``) or, from API clients and import files, as SQuAD's
``answer_start`` in code points plus the answer ``text``; both end up as a checked
:class:`mlcore.data.spans.Span`. Messages are in the active language (the worker's page's, which
the worker APIs and the model-in-the-loop socket activate), numbers in its digits.
"""
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from core.i18n import digits
from core.validators import json_error_reason, text_problem
from mlcore.data.bounded_json import load_json
from mlcore.data.spans import Span, SpanError, check_span, span_from_utf16

#: Largest import file (articles or SQuAD JSON) the pages and the API accept.
MAX_UPLOAD_BYTES = 50 * 1024 * 1024


@dataclass(frozen=True)
class CleanQuestion:
    """A question ready to store: its text and either a span or ``is_impossible``."""

    question: str
    is_impossible: bool
    span: Span | None


def normalize_question_key(text: str) -> str:
    """What two questions must differ in to count as different (case and spacing ignored)."""
    return " ".join(text.casefold().split())


def span_message(error: SpanError) -> str:
    """A span problem (``mlcore.data.spans``) in the active language, its numbers in its digits."""
    params = {name: digits(value) if isinstance(value, int) else value for name, value in error.params.items()}
    return _(error.template) % params if params else _(error.template)


def _check_text(field: str, value: str) -> None:
    """The one text rule (``core.validators``): no NUL, no lone surrogate."""
    problem = text_problem(value)
    if problem is not None:
        raise ValidationError({field: problem})


def clean_question_text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationError({"question": _("The question is empty.")})
    _check_text("question", value)
    text = value.strip()
    if len(text) > settings.STUMPER_MAX_SPAN_QUESTION_CHARS:
        raise ValidationError({"question": _("The question is too long (at most %(count)s characters).")
                                           % {"count": digits(settings.STUMPER_MAX_SPAN_QUESTION_CHARS)}})
    return text


def _selection_span(context: str, selection: Any) -> Span:
    if not isinstance(selection, Mapping) or not {"start16", "end16"} <= set(selection):
        raise ValidationError({"answer": _('A selection needs "start16" and "end16" (UTF-16 offsets).')})
    try:
        return span_from_utf16(context, selection["start16"], selection["end16"])
    except SpanError as error:
        raise ValidationError({"answer": span_message(error)}) from None


def _answer_span(context: str, answer: Any) -> Span:
    if not isinstance(answer, Mapping) or "text" not in answer or "answer_start" not in answer:
        raise ValidationError({"answer": _('An answer needs "text" and "answer_start".')})
    try:
        return check_span(context, answer["text"], answer["answer_start"])
    except SpanError as error:
        raise ValidationError({"answer": span_message(error)}) from None


def clean_span(*, context: str, answer: Any = None, selection: Any = None) -> Span:
    """The span given as ``answer`` ({text, answer_start}) or ``selection`` ({start16, end16})."""
    if answer is not None and selection is not None:
        raise ValidationError({"answer": _("Give the answer either as a selection or as text and answer_start, "
                                           "not both.")})
    if selection is not None:
        return _selection_span(context, selection)
    if answer is not None:
        return _answer_span(context, answer)
    raise ValidationError({"answer": _("Mark the answer in the paragraph, or mark the question unanswerable.")})


def clean_span_question(*, context: str, question: Any, is_impossible: Any = False, answer: Any = None,
                        selection: Any = None) -> CleanQuestion:
    """Validate one question with its answer (or ``is_impossible``) against ``context``."""
    text = clean_question_text(question)
    if not isinstance(is_impossible, bool):
        raise ValidationError({"is_impossible": _("is_impossible must be true or false.")})
    if is_impossible:
        if answer is not None or selection is not None:
            raise ValidationError({"answer": _('An unanswerable question cannot have an answer span: clear the '
                                               'selection or untick "unanswerable".')})
        return CleanQuestion(text, True, None)
    return CleanQuestion(text, False, clean_span(context=context, answer=answer, selection=selection))


def check_no_duplicate(text: str, others: Iterable[str]) -> None:
    """Refuse a question already asked on this paragraph (ignoring case and spacing)."""
    key = normalize_question_key(text)
    if any(normalize_question_key(other) == key for other in others):
        raise ValidationError({"question": _("This question was already asked on this paragraph.")})


DRAFT_KEYS = {"question", "is_impossible", "selection", "editing_id"}


def clean_draft(draft: Any) -> dict:
    """The half-typed question the page saves so a reload loses nothing (shape only)."""
    if not isinstance(draft, Mapping):
        raise ValidationError({"draft": _("The draft must be a JSON object.")})
    unknown = set(draft) - DRAFT_KEYS
    if unknown:
        raise ValidationError({"draft": _("Unknown draft field(s): %(fields)s.") % {"fields": ", ".join(sorted(unknown))}})
    question = draft.get("question", "")
    if not isinstance(question, str) or len(question) > settings.STUMPER_MAX_SPAN_QUESTION_CHARS * 2:
        raise ValidationError({"draft": _("The draft question must be text of reasonable length.")})
    _check_text("draft", question)
    selection = draft.get("selection")
    if selection is not None and (
        not isinstance(selection, Mapping) or set(selection) != {"start16", "end16"}
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 10**7 for v in selection.values())
    ):
        raise ValidationError({"draft": _("The draft selection must be {start16, end16} offsets.")})
    editing = draft.get("editing_id")
    if editing is not None and (not isinstance(editing, int) or isinstance(editing, bool)):
        raise ValidationError({"draft": _("editing_id must be a question id or null.")})
    if not isinstance(draft.get("is_impossible", False), bool):
        raise ValidationError({"draft": _("is_impossible must be true or false.")})
    return {"question": question, "is_impossible": draft.get("is_impossible", False),
            "selection": dict(selection) if selection else None, "editing_id": editing}


def first_message(error: ValidationError) -> str:
    """The first human-readable message of a ValidationError (for one-line displays)."""
    if hasattr(error, "error_dict"):
        for messages in error.message_dict.values():
            if messages:
                return messages[0]
    return error.messages[0] if error.messages else str(error)


def read_upload_text(upload) -> str:
    """An uploaded import file's text; refused when larger than ``MAX_UPLOAD_BYTES`` or not UTF-8."""
    if upload.size > MAX_UPLOAD_BYTES:
        raise ValidationError(_("The file is larger than %(count)s MB.") % {"count": digits(MAX_UPLOAD_BYTES // 2**20)})
    try:
        return upload.read().decode("utf-8")
    except UnicodeDecodeError:
        raise ValidationError(_("The file is not UTF-8 text.")) from None


def read_upload_json(upload) -> Any:
    """An uploaded JSON file (SQuAD-2.0 / PQuAD), parsed; the parser's complaint names the place."""
    text = read_upload_text(upload)
    try:
        return load_json(text)  # bounded: deep nesting or a 5,000-digit number is refused here
    except json.JSONDecodeError as error:
        raise ValidationError(_("Not valid JSON: %(reason)s at line %(line)s, column %(column)s.")
                              % {"reason": json_error_reason(error), "line": digits(error.lineno),
                                 "column": digits(error.colno)}) from None
