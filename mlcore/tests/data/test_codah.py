"""Tests for mlcore.data.codah: parsing, validation messages, round trip."""

from __future__ import annotations

import pytest

from mlcore.configs import MCExample
from mlcore.data.codah import format_codah_tsv, parse_codah_tsv, read_codah_file
from mlcore.tests.shared_data import shared_data

GOOD = "o\tMy brother is good at math. He\tflies.\twon a contest.\tis a fish.\teats math.\t1"


def _errors(text: str, **kwargs: int) -> list[tuple[int, str]]:
    return [(e.line, e.message) for e in parse_codah_tsv(text, **kwargs).errors]


def test_parses_valid_row() -> None:
    result = parse_codah_tsv(GOOD + "\n")
    assert result.ok
    assert result.examples == (
        MCExample("My brother is good at math. He", ("flies.", "won a contest.", "is a fish.", "eats math."), 1,
                  ("other",)),
    )


@pytest.mark.parametrize(
    ("code", "categories"),
    [("", ()), ("o", ("other",)), ("i", ("idioms",)), ("q", ("quantitative",)), ("ip", ("idioms", "polysemy")),
     ("N", ("negation",))],
)
def test_category_codes(code: str, categories: tuple[str, ...]) -> None:
    result = parse_codah_tsv(GOOD.replace("o", code, 1))
    assert result.examples[0].categories == categories


@pytest.mark.parametrize(
    ("bad_row", "fragment"),
    [
        ("o\tprompt\ta\tb\tc\t1", "expected 7 tab-separated fields, found 6"),
        ("o\tprompt\ta\tb\tc\td\te\t1", "expected 7 tab-separated fields, found 8"),
        ("x\tprompt\ta\tb\tc\td\t1", "unknown category letter(s) 'x'"),
        ("ii\tprompt\ta\tb\tc\td\t1", "repeats a letter"),
        ("o\t  \ta\tb\tc\td\t1", "prompt is empty"),
        ("o\tprompt\ta\t \tc\td\t1", "answer 1 is empty"),
        ("o\tprompt\ta\tb\tA\td\t1", "two answers are the same"),
        ("o\tprompt\ta\tb\tc\td\t4", "correct answer index must be one of 0, 1, 2, 3, got '4'"),
        ("o\tprompt\ta\tb\tc\td\tone", "got 'one'"),
        ("o\tprompt\ta\tb\tc\td\t", "got ''"),
        ("o\t" + "p" * 501 + "\ta\tb\tc\td\t1", "prompt is 501 characters long (limit 500)"),
        ("o\tprompt\ta\tb\t" + "c" * 201 + "\td\t1", "answer 2 is 201 characters long (limit 200)"),
    ],
)
def test_each_bad_row_reports_its_line(bad_row: str, fragment: str) -> None:
    text = "\n".join([GOOD, bad_row, GOOD.replace("He", "She")]) + "\n"
    result = parse_codah_tsv(text)
    assert len(result.examples) == 2
    assert len(result.errors) == 1
    line, message = result.errors[0].line, result.errors[0].message
    assert line == 2
    assert fragment in message
    assert str(result.errors[0]).startswith("line 2: ")


def test_all_problems_of_a_row_are_listed() -> None:
    [(line, message)] = _errors("z\t\ta\ta\tc\td\t9")
    assert line == 1
    assert "unknown category" in message and "prompt is empty" in message
    assert "two answers are the same" in message and "got '9'" in message


def test_limits_are_keyword_arguments() -> None:
    assert _errors(GOOD, max_prompt_chars=10)[0][1].startswith("prompt is 30 characters long (limit 10)")
    assert _errors(GOOD, max_choice_chars=5)


def test_duplicates_can_be_allowed() -> None:
    row = "q\tI have 3 apples. I give 1 away. I have\t5 apples\twater\t2 left\twater\t2"
    assert _errors(row)
    assert parse_codah_tsv(row, allow_duplicate_choices=True).ok


def test_blank_lines_crlf_and_bom_are_tolerated() -> None:
    text = "\ufeff" + GOOD + "\r\n\r\n" + GOOD + "\r\n\n"
    result = parse_codah_tsv(text)
    assert result.ok and len(result.examples) == 2


def test_line_numbers_count_skipped_blank_lines() -> None:
    assert _errors(GOOD + "\n\n\nbad\n")[0][0] == 4


def test_format_is_inverse_and_no_category_stays_empty() -> None:
    text = "\n".join([GOOD.replace("o", "", 1), GOOD, GOOD.replace("o", "ip", 1)]) + "\n"
    examples = parse_codah_tsv(text).examples
    assert [e.categories for e in examples] == [(), ("other",), ("idioms", "polysemy")]
    assert format_codah_tsv(examples) == text
    assert parse_codah_tsv(format_codah_tsv(examples)).examples == examples


def test_format_rejects_unlabelled_and_tabs() -> None:
    with pytest.raises(ValueError, match="unlabelled"):
        format_codah_tsv([MCExample("p", ("a", "b", "c", "d"))])
    with pytest.raises(ValueError, match="tab or newline"):
        format_codah_tsv([MCExample("p\tq", ("a", "b", "c", "d"), 0)])


def test_format_with_weights_appends_one_field_per_answer() -> None:
    examples = parse_codah_tsv(GOOD + "\n" + GOOD.replace("o", "ip", 1) + "\n").examples
    text = format_codah_tsv(examples, weights=[[0.5, 1.25, 0.973412, 2.0], [None, None, 3.0, 1e-07]])
    assert text.splitlines() == [GOOD + "\t0.5\t1.25\t0.973412\t2.0", GOOD.replace("o", "ip", 1) + "\t\t\t3.0\t1e-07"]
    # The first 7 fields are the unweighted file; the weights parse back exactly.
    assert [line.split("\t")[:7] for line in text.splitlines()] == [
        line.split("\t") for line in format_codah_tsv(examples).splitlines()]
    assert [float(w) for w in text.splitlines()[0].split("\t")[7:]] == [0.5, 1.25, 0.973412, 2.0]


def test_format_rejects_weights_that_do_not_fit() -> None:
    examples = parse_codah_tsv(GOOD + "\n").examples
    with pytest.raises(ValueError, match="2 rows of weights for 1 examples"):
        format_codah_tsv(examples, weights=[[1.0] * 4, [1.0] * 4])
    with pytest.raises(ValueError, match="3 weights for 4 answers"):
        format_codah_tsv(examples, weights=[[1.0] * 3])
    with pytest.raises(ValueError, match="finite number"):
        format_codah_tsv(examples, weights=[[1.0, float("nan"), 1.0, 1.0]])


def test_round_trip_full_data() -> None:
    full_data = shared_data("codah", "full_data.tsv")
    text = full_data.read_text(encoding="utf-8")
    result = read_codah_file(full_data, allow_duplicate_choices=True)
    assert result.ok and len(result.examples) == 2776
    # Byte for byte, the 10 empty category codes included (uncategorised, not "other").
    assert format_codah_tsv(result.examples) == text
    assert sum(not e.categories for e in result.examples) == 10
    assert sum(e.categories == ("other",) for e in result.examples) == 2080
    strict = read_codah_file(full_data)
    assert [e.line for e in strict.errors] == [1826, 1856, 2306]


# ---- the same questions as JSON (a round's JSON Lines export, or an array) -------------------------

JSON_RECORD = {"prompt": "My brother is good at math. He", "choices": ["flies.", "won a contest.", "is a fish.",
               "eats math."], "answer": 1, "categories": ["other"]}


def test_json_lines_give_the_tsv_rows_examples() -> None:
    import json

    from mlcore.data.codah import parse_codah_json

    lines = json.dumps({**JSON_RECORD, "id": 3, "author": "alice", "live_prediction": None}) + "\n\n"
    result = parse_codah_json(lines)
    assert result.ok and result.unit == "line"
    assert result.examples == parse_codah_tsv(GOOD + "\n").examples


@pytest.mark.parametrize(("record", "message"), [
    ({**JSON_RECORD, "answer": 4}, "correct answer index must be one of 0, 1, 2, 3, got '4'"),
    ({**JSON_RECORD, "answer": True}, "answer must be the index of the right choice"),
    ({**JSON_RECORD, "choices": ["a", "b", "c"]}, "choices must be a list of 4 texts"),
    ({**JSON_RECORD, "choices": ["a", "b", "a", "c"]}, "two answers are the same"),
    ({**JSON_RECORD, "prompt": " "}, "prompt is empty"),
    ({**JSON_RECORD, "categories": ["colour"]}, "unknown category 'colour'"),
    ({"prompt": "P"}, "choices is missing; answer is missing"),
    ([1, 2], "expected a JSON object"),
])
def test_json_rows_get_the_tsv_rows_messages(record, message) -> None:
    import json

    from mlcore.data.codah import parse_codah_json

    result = parse_codah_json(json.dumps(JSON_RECORD) + "\n" + json.dumps(record) + "\n")
    assert [(e.line, message in e.message) for e in result.errors] == [(2, True)], result.errors
    assert len(result.examples) == 1


def test_a_json_array_counts_items_and_bad_json_is_a_row_error() -> None:
    import json

    from mlcore.data.codah import parse_codah_json

    result = parse_codah_json(json.dumps([JSON_RECORD, {**JSON_RECORD, "answer": "x"}], indent=2))
    assert result.unit == "item" and [e.line for e in result.errors] == [2] and len(result.examples) == 1
    assert parse_codah_json("{not json\n").errors[0].message.startswith("not valid JSON")
    assert parse_codah_json("[1,\n").errors[0].message.startswith("not valid JSON")
    assert parse_codah_json("1" * 5000 + "\n").errors[0].message.startswith("not valid JSON")  # too long to read
