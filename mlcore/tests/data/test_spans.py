"""Span arithmetic: code points vs UTF-16, exact slices, bad offsets (mlcore.data.spans)."""

from __future__ import annotations

import pytest

from mlcore.data.spans import (
    Span,
    SpanError,
    check_span,
    index_to_utf16,
    span_from_utf16,
    utf16_length,
    utf16_to_index,
)

ZWNJ = "\u200c"
# "کتاب‌ها" (books) with a ZWNJ, Arabic yeh/kaf variants, Persian digits and an emoji before it.
PERSIAN = "در سال ۱۳۹۵ \U0001F3C5 کتاب" + ZWNJ + "ها را علي و كريم خواندند."


def _js_offset(text: str, index: int) -> int:
    """What a browser reports: UTF-16 code units before ``index``."""
    return len(text[:index].encode("utf-16-le")) // 2


def test_utf16_length_counts_astral_characters_twice() -> None:
    assert utf16_length("abc") == 3
    assert utf16_length("\U0001F3C5") == 2
    assert utf16_length(PERSIAN) == len(PERSIAN) + 1


@pytest.mark.parametrize("index", range(len(PERSIAN) + 1))
def test_offsets_round_trip_through_utf16(index: int) -> None:
    offset16 = index_to_utf16(PERSIAN, index)
    assert offset16 == _js_offset(PERSIAN, index)
    assert utf16_to_index(PERSIAN, offset16) == index


def test_utf16_offset_inside_a_surrogate_pair_is_refused() -> None:
    emoji_at = PERSIAN.index("\U0001F3C5")
    with pytest.raises(SpanError, match="splits the character"):
        utf16_to_index(PERSIAN, _js_offset(PERSIAN, emoji_at) + 1)


@pytest.mark.parametrize("offset", [-1, 10_000])
def test_utf16_offset_outside_the_text_is_refused(offset: int) -> None:
    with pytest.raises(SpanError):
        utf16_to_index(PERSIAN, offset)


def test_non_integer_offsets_are_refused() -> None:
    with pytest.raises(SpanError, match="whole numbers"):
        utf16_to_index("abc", 1.5)  # type: ignore[arg-type]
    with pytest.raises(SpanError, match="whole numbers"):
        utf16_to_index("abc", True)  # type: ignore[arg-type]


def test_selection_with_zwnj_after_an_emoji_gives_code_point_offsets() -> None:
    word = "کتاب" + ZWNJ + "ها"
    start = PERSIAN.index(word)
    span = span_from_utf16(PERSIAN, _js_offset(PERSIAN, start), _js_offset(PERSIAN, start + len(word)))
    assert span == Span(start, start + len(word), word)
    assert ZWNJ in span.text
    # The emoji before it makes the UTF-16 offset one larger than the code-point one.
    assert _js_offset(PERSIAN, start) == start + 1
    assert PERSIAN[span.answer_start:span.answer_start + len(span.text)] == span.text


def test_arabic_letter_variants_and_persian_digits_are_kept_as_written() -> None:
    for word in ("علي", "كريم", "۱۳۹۵"):
        start = PERSIAN.index(word)
        span = span_from_utf16(PERSIAN, _js_offset(PERSIAN, start), _js_offset(PERSIAN, start + len(word)))
        assert span.text == word  # never normalised to ی/ک/ASCII digits
        assert check_span(PERSIAN, word, start) == span


def test_selection_edges_are_trimmed_of_spaces_and_invisible_characters() -> None:
    context = "a " + ZWNJ + "word" + ZWNJ + " b"
    span = span_from_utf16(context, 1, len(context) - 1)
    assert span.text == "word" and span.start == 3


def test_selection_is_widened_over_combining_marks() -> None:
    context = "Mu\u0308nchen and mu\u062d\u064e\u0645\u0651\u064e\u062f"  # ü decomposed; Arabic with harakat
    span = span_from_utf16(context, 0, 2)  # ends between "u" and its diaeresis
    assert span.text == "Mu\u0308"
    arabic_start = context.index("\u062d")
    end_before_mark = context.index("\u0651")  # selection stops between meem and shadda
    span = span_from_utf16(context, arabic_start, end_before_mark)
    assert span.text == "\u062d\u064e\u0645\u0651\u064e"
    start_on_mark = context.index("\u064e")
    assert span_from_utf16(context, start_on_mark, start_on_mark + 2).start == arabic_start


def test_empty_and_reversed_selections_are_refused() -> None:
    with pytest.raises(SpanError, match="empty"):
        span_from_utf16("a   b", 1, 4)
    with pytest.raises(SpanError, match="ends before it starts"):
        span_from_utf16("abc", 2, 1)


@pytest.mark.parametrize(
    ("text", "start", "message"),
    [
        ("", 0, "empty"),
        ("Paris", -1, "outside the paragraph"),
        ("Paris", 99, "outside the paragraph"),
        ("big.", 10, "runs past the end"),
        ("big", 3, "does not match the paragraph at offset 3, which has 'is ' there"),
        ("Paris", True, "whole number"),
    ],
)
def test_check_span_rejects_bad_answers(text: str, start: int, message: str) -> None:
    with pytest.raises(SpanError, match=message):
        check_span("Paris is big.", text, start)


def test_check_span_is_exact_about_invisible_characters() -> None:
    context = "کتاب" + ZWNJ + "ها"
    assert check_span(context, context, 0).end == len(context)
    with pytest.raises(SpanError, match="does not match"):
        check_span(context, "کتابها", 0)  # same look, no ZWNJ: not the stored text
