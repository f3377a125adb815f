"""The one JSON reader for everything that comes from outside: bounded depth, size and numbers.

Python's :func:`json.loads` trusts its input: ``[`` nested a few thousand deep raises
``RecursionError``, a 5,000-digit integer raises a plain ``ValueError`` (Python's limit on
int-to-str conversion) or later breaks ``str()`` of the value, ``1e999`` becomes ``inf`` and
``NaN`` is accepted. :func:`load_json` refuses all of these before or while parsing, with a
:class:`JsonLimitError`, which is a :class:`json.JSONDecodeError`: every caller that already
reports a broken file or message (with its line and column) reports these too.

The REST API's parser, the websocket base and every import (SQuAD, articles, ambiguity files)
call it (``core.apis.BoundedJSONParser``, ``core.sockets.JsonSocketConsumer``). Like
:class:`mlcore.data.spans.SpanError`, an error keeps its English ``template`` and ``params`` so
a page can show it translated (``core.validators.json_error_reason``).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

__all__ = ["MAX_DEPTH", "MAX_INT_DIGITS", "JsonLimitError", "load_json"]

#: Deepest nesting of arrays and objects accepted; SQuAD files nest 6 deep, drafts 2.
MAX_DEPTH = 64
#: Longest integer accepted, in digits: far below Python's int-to-str limit (4,300), and still
#: past int64 (19), so that an id a little too large gets its field's own "at most" message.
MAX_INT_DIGITS = 50

# A complete JSON string (escapes included), and what is left that is not a bracket.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation (``makemessages`` finds it); it stays English here."""
    return message


TOO_LARGE = gettext_noop("it is larger than %(count)s characters")
TOO_DEEP = gettext_noop("it is nested deeper than %(count)s levels")
TOO_MANY_DIGITS = gettext_noop("a number has more than %(count)s digits")
NOT_FINITE = gettext_noop("a number is too large")
NOT_A_NUMBER = gettext_noop("%(name)s is not a JSON number")


class JsonLimitError(json.JSONDecodeError):
    """JSON that breaks a limit; ``msg`` says which, ``lineno``/``colno`` where.

    ``template`` is the message with ``%(name)s`` placeholders and ``params`` their values.
    """

    def __init__(self, template: str, doc: str, pos: int, **params: int | str) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template, doc, pos)

    def __reduce__(self) -> tuple[Any, tuple[str, str, int, dict[str, int | str]]]:  # picklable, as JSONDecodeError is (errors may cross processes)
        return _rebuild, (self.template, self.doc, self.pos, self.params)


def _rebuild(template: str, doc: str, pos: int, params: dict[str, int | str]) -> JsonLimitError:
    return JsonLimitError(template, doc, pos, **params)


def _too_deep_at(text: str, max_depth: int) -> int | None:
    """Where nesting first goes past ``max_depth`` (an index into ``text``), or None.

    Brackets inside strings do not count. The common case costs two regular-expression passes
    in C; only a file that is too deep is walked in Python, to find the place.
    """
    if text.count("[") + text.count("{") <= max_depth:
        return None
    depth = 0
    for bracket in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > max_depth:
            break
    else:
        return None
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > max_depth:
                return match.start()
        elif token in "]}":
            depth -= 1
    return 0  # not reached: both walks count the same brackets


def load_json(text: str, *, max_depth: int = MAX_DEPTH, max_int_digits: int = MAX_INT_DIGITS,
              max_chars: int | None = None) -> Any:
    """Parse ``text`` as JSON within limits.

    Parameters
    ----------
    text : str
        The JSON document (already decoded).
    max_depth : int
        Deepest nesting of arrays and objects.
    max_int_digits : int
        Longest integer, in digits (a minus sign does not count).
    max_chars : int or None
        Longest document, in characters; None: no limit here (the caller capped it).

    Raises
    ------
    json.JSONDecodeError
        Not JSON, or (:class:`JsonLimitError`) beyond a limit, or ``NaN``/``Infinity``, or a
        number too large for a float.

    Examples
    --------
    >>> load_json('{"seq": 3, "choices": ["a", "b"]}')
    {'seq': 3, 'choices': ['a', 'b']}
    >>> load_json("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    ...
    mlcore.data.bounded_json.JsonLimitError: it is nested deeper than 64 levels: line 1 column 65 (char 64)
    >>> load_json('{"seq": ' + "9" * 60 + "}")
    Traceback (most recent call last):
    ...
    mlcore.data.bounded_json.JsonLimitError: a number has more than 50 digits: line 1 column 9 (char 8)
    """
    if max_chars is not None and len(text) > max_chars:
        raise JsonLimitError(TOO_LARGE, text, 0, count=max_chars)
    deep = _too_deep_at(text, max_depth)
    if deep is not None:
        raise JsonLimitError(TOO_DEEP, text, deep, count=max_depth)

    def parse_int(digits: str) -> int:
        if len(digits) - digits.startswith("-") > max_int_digits:
            raise JsonLimitError(TOO_MANY_DIGITS, text, max(text.find(digits), 0), count=max_int_digits)
        return int(digits)

    def parse_float(literal: str) -> float:
        value = float(literal)
        if not math.isfinite(value):
            raise JsonLimitError(NOT_FINITE, text, max(text.find(literal), 0))
        return value

    def parse_constant(name: str) -> float:
        raise JsonLimitError(NOT_A_NUMBER, text, max(text.find(name), 0), name=name)

    return json.loads(text, parse_int=parse_int, parse_float=parse_float, parse_constant=parse_constant)
