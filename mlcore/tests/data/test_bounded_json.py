"""The one JSON reader: limits on depth, numbers and size, errors that say where."""
import json

import pytest

from mlcore.data.bounded_json import MAX_DEPTH, JsonLimitError, load_json


def test_ordinary_json_reads_as_json_loads_does():
    text = json.dumps({"data": [{"title": "[{ not a bracket", "qas": [{"answer_start": -12, "p": 0.5}]}], "ok": None})
    assert load_json(text) == json.loads(text)


def test_nesting_up_to_the_limit_is_read_and_one_more_level_is_refused():
    assert load_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(JsonLimitError, match=f"nested deeper than {MAX_DEPTH} levels") as raised:
        load_json('{"a":\n' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}")
    assert (raised.value.lineno, raised.value.colno) == (2, MAX_DEPTH)  # the bracket that went too deep


def test_brackets_inside_strings_do_not_count_even_with_escaped_quotes():
    text = json.dumps(["[" * 1000, '\\"[[[' * 500, "{" * 1000])
    assert load_json(text) == json.loads(text)


@pytest.mark.parametrize("text", ["[" * 5000, "[" * 5000 + "]" * 5000, '{"a": ' * 5000, '["' + "[" * 9000])
def test_deep_or_unclosed_nesting_is_a_decode_error_never_a_recursion_error(text):
    with pytest.raises(json.JSONDecodeError):
        load_json(text)


def test_integers_are_bounded_in_digits_and_the_place_is_named():
    assert load_json("-" + "9" * 50) == -int("9" * 50)
    with pytest.raises(JsonLimitError, match="more than 50 digits") as raised:
        load_json('{"seq":\n  ' + "9" * 5000 + "}")
    assert (raised.value.lineno, raised.value.colno) == (2, 3)


@pytest.mark.parametrize("text,message", [("[NaN]", "NaN is not a JSON number"),
                                          ("[-Infinity]", "-Infinity is not a JSON number"),
                                          ("[1e999]", "a number is too large"),
                                          ("[" + "9" * 400 + ".0]", "a number is too large")])
def test_numbers_a_database_cannot_store_are_refused(text, message):
    with pytest.raises(JsonLimitError, match=message):
        load_json(text)


def test_size_limit_and_the_error_keeps_its_template_for_translation():
    with pytest.raises(JsonLimitError) as raised:
        load_json("[1, 2, 3]", max_chars=5)
    assert raised.value.template == "it is larger than %(count)s characters" and raised.value.params == {"count": 5}


def test_plain_syntax_errors_stay_plain_decode_errors():
    with pytest.raises(json.JSONDecodeError) as raised:
        load_json("{nope")
    assert not isinstance(raised.value, JsonLimitError)
