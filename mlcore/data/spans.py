"""Answer-span arithmetic for SQuAD-style data, in Python characters (code points).

SQuAD and PQuAD store ``answer_start`` as an index into the context string such that
``context[answer_start:answer_start + len(text)] == text``. Browsers report selection
offsets in UTF-16 code units, which differ from code points as soon as the paragraph
contains a character outside the Basic Multilingual Plane (an emoji, a rare CJK
ideograph, a mathematical letter): each such character is two UTF-16 units but one
Python character. Zero-width non-joiners, Arabic/Persian letter variants, Persian digits
and combining marks are single code points and need no conversion, but they must never
be normalised away: the stored text is an exact slice of the stored context.

Everything here is pure and Django-free; :class:`SpanError` messages are meant to be
shown to people as they are. Each keeps its English ``template`` and ``params`` too, so a page
can show it translated (``annotation.inputs.span_message``; the templates are marked with
:func:`gettext_noop` for Django's ``makemessages``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

__all__ = [
    "Span",
    "SpanError",
    "check_span",
    "index_to_utf16",
    "snap_to_characters",
    "span_from_utf16",
    "trim_span",
    "utf16_length",
    "utf16_to_index",
]


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation (``makemessages`` finds it); it stays English here."""
    return message


class SpanError(ValueError):
    """An answer span that does not fit its context; the message says why.

    ``template`` is the message with ``%(name)s`` placeholders and ``params`` their values
    (numbers, or text already quoted), so that the message can be translated as a whole.
    """

    def __init__(self, template: str, **params: int | str) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


@dataclass(frozen=True)
class Span:
    """A validated span: ``text == context[start:end]``, offsets in code points."""

    start: int
    end: int
    text: str

    @property
    def answer_start(self) -> int:
        """SQuAD's name for ``start``."""
        return self.start


def _is_low_surrogate_start(ch: str) -> bool:
    return ord(ch) > 0xFFFF


def utf16_length(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (what JavaScript's ``length`` reports).

    Examples
    --------
    >>> utf16_length("a\\U0001F600b")
    4
    """
    return len(text) + sum(1 for ch in text if _is_low_surrogate_start(ch))


def index_to_utf16(text: str, index: int) -> int:
    """Convert a code-point index into ``text`` to a UTF-16 offset.

    Examples
    --------
    >>> index_to_utf16("\\U0001F600x", 1)
    2
    """
    if not 0 <= index <= len(text):
        raise SpanError(gettext_noop("Offset %(offset)s is outside the text (0 to %(end)s)."), offset=index,
                        end=len(text))
    return index + sum(1 for ch in text[:index] if _is_low_surrogate_start(ch))


def utf16_to_index(text: str, offset: int) -> int:
    """Convert a UTF-16 offset (a browser's selection offset) to a code-point index.

    Raises
    ------
    SpanError
        If the offset is negative, past the end, or falls between the two halves of a
        surrogate pair (it would split one character in two).

    Examples
    --------
    >>> utf16_to_index("\\U0001F600x", 2)
    1
    """
    if isinstance(offset, bool) or not isinstance(offset, int):
        raise SpanError(gettext_noop("Selection offsets must be whole numbers."))
    if offset < 0:
        raise SpanError(gettext_noop("Selection offset %(offset)s is negative."), offset=offset)
    units = 0
    for index, ch in enumerate(text):
        if units == offset:
            return index
        units += 2 if _is_low_surrogate_start(ch) else 1
        if units > offset:
            raise SpanError(gettext_noop("Selection offset %(offset)s splits the character %(character)s in two."),
                            offset=offset, character=repr(ch))
    if units == offset:
        return len(text)
    raise SpanError(gettext_noop("Selection offset %(offset)s is past the end of the paragraph (%(units)s UTF-16 "
                                 "units)."), offset=offset, units=units)


def check_span(context: str, text: str, answer_start: int) -> Span:
    """Validate a stored/imported answer: ``text`` must be ``context[answer_start:...]`` exactly.

    Raises
    ------
    SpanError
        For an empty answer, an offset outside the context, or a text that differs from
        the context at that offset (the message shows what the context has there).

    Examples
    --------
    >>> check_span("Paris is big.", "Paris", 0).end
    5
    >>> check_span("Paris is big.", "big", 3)
    Traceback (most recent call last):
    ...
    mlcore.data.spans.SpanError: The answer 'big' does not match the paragraph at offset 3, which has 'is ' there.
    """
    if not isinstance(text, str) or not isinstance(context, str):
        raise SpanError(gettext_noop("The answer and the paragraph must be text."))
    if isinstance(answer_start, bool) or not isinstance(answer_start, int):
        raise SpanError(gettext_noop("answer_start must be a whole number."))
    if text == "":
        raise SpanError(gettext_noop("The answer is empty: mark a span or mark the question unanswerable."))
    if answer_start < 0 or answer_start >= len(context):
        raise SpanError(gettext_noop("answer_start %(offset)s is outside the paragraph (0 to %(last)s)."),
                        offset=answer_start, last=len(context) - 1)
    end = answer_start + len(text)
    if end > len(context):
        raise SpanError(gettext_noop("The answer (%(length)s characters from offset %(offset)s) runs past the end of "
                                     "the paragraph (%(paragraph)s characters)."),
                        length=len(text), offset=answer_start, paragraph=len(context))
    found = context[answer_start:end]
    if found != text:
        raise SpanError(gettext_noop("The answer %(answer)s does not match the paragraph at offset %(offset)s, which "
                                     "has %(found)s there."), answer=repr(text), offset=answer_start, found=repr(found))
    return Span(answer_start, end, text)


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def snap_to_characters(context: str, start: int, end: int) -> tuple[int, int]:
    """Widen ``[start, end)`` so it neither starts on nor stops before a combining mark.

    A selection that ends between a letter and its diacritic (or starts on the diacritic)
    would store half a character as seen by the reader; the whole cluster is taken instead.

    Examples
    --------
    >>> snap_to_characters("cafe\\u0301 au lait", 0, 4)
    (0, 5)
    """
    while 0 < start < len(context) and _is_mark(context[start]):
        start -= 1
    while end < len(context) and end > 0 and _is_mark(context[end]):
        end += 1
    return start, end


def _is_edge_junk(ch: str) -> bool:
    # Spaces and invisible format characters (ZWNJ, ZWJ, LRM/RLM, BOM) at the edges of a
    # selection are never part of an answer; inside it they are (a ZWNJ joins a compound).
    return ch.isspace() or unicodedata.category(ch) == "Cf"


def trim_span(context: str, start: int, end: int) -> tuple[int, int]:
    """Drop whitespace and invisible format characters at both edges of ``[start, end)``.

    Examples
    --------
    >>> trim_span(" a b ", 0, 5)
    (1, 4)
    """
    while start < end and _is_edge_junk(context[start]):
        start += 1
    while end > start and _is_edge_junk(context[end - 1]):
        end -= 1
    return start, end


def span_from_utf16(context: str, start16: int, end16: int, *, trim: bool = True) -> Span:
    """The span a browser selection ``[start16, end16)`` (UTF-16 offsets) denotes.

    The offsets are converted to code points, widened over combining marks and, with
    ``trim``, stripped of edge whitespace and invisible characters.

    Raises
    ------
    SpanError
        For offsets outside the paragraph, reversed offsets, or an empty selection.

    Examples
    --------
    >>> span_from_utf16("\\U0001F600 Tehran is big", 3, 9)
    Span(start=2, end=8, text='Tehran')
    """
    start = utf16_to_index(context, start16)
    end = utf16_to_index(context, end16)
    if end < start:
        raise SpanError(gettext_noop("The selection ends before it starts."))
    start, end = snap_to_characters(context, start, end)
    if trim:
        start, end = trim_span(context, start, end)
    if start == end:
        raise SpanError(gettext_noop("The selection is empty: select the answer's words in the paragraph."))
    return Span(start, end, context[start:end])
