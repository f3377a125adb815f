"""The one text rule, JSON errors in words, and safe download names."""
import json

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation
from rest_framework import serializers

from core.apis import content_disposition, safe_filename
from core.validators import json_error_reason, text_problem, text_problems, validate_text
from mlcore.data.bounded_json import load_json


@pytest.mark.parametrize("value", ["a\x00b", "lone \ud800 surrogate", "\udfff"])
def test_the_text_rule_is_the_api_fields_rule_with_the_same_message(value):
    field = serializers.CharField()
    with pytest.raises(serializers.ValidationError) as api:
        field.run_validation(value)
    assert text_problem(value) == str(api.value.detail[0])
    with pytest.raises(ValidationError):
        validate_text(value)


def test_text_that_can_be_stored_passes():
    assert text_problem("Tab\tnew\nline, ZWNJ\u200c, emoji \U0001F600, فارسی") is None
    validate_text("ok")


def test_every_string_of_a_json_document_is_checked_with_its_path():
    data = load_json('{"data": [{"title": "ok", "paragraphs": [{"context": "x\\u0000"}]}], "k\\ud800": 1}')
    assert text_problems(data) == [
        ("top level (a key)", "Surrogate characters are not allowed: U+D800."),
        ("data[0].paragraphs[0].context", "Null characters are not allowed."),
    ]
    assert text_problems(["fine", {"also": ["fine"]}]) == []


def test_a_json_limit_is_worded_in_the_active_language():
    with pytest.raises(json.JSONDecodeError) as deep:
        load_json("[" * 100)
    with translation.override("fa"):
        assert json_error_reason(deep.value) == "بیش از ۶۴ سطح تودرتو است"
    with pytest.raises(json.JSONDecodeError) as plain:
        load_json("{nope")
    assert json_error_reason(plain.value) == plain.value.msg


@pytest.mark.parametrize("name,expected", [
    ("stumper-r1-grades-canvas.csv", "stumper-r1-grades-canvas.csv"),
    ('my "best"\r\nSet-Cookie: x=1-all.json', "my-best-Set-Cookie-x-1-all.json"),
    ("../../etc/passwd", "etc-passwd"),
    (".hidden.json", "hidden.json"),
    ("داده‌ها.json", "داده-ها.json"),
    ("\r\n.csv", "download.csv"),
    ("x" * 400 + ".zip", "x" * 150 + ".zip"),
])
def test_download_names_keep_only_safe_characters_and_their_extension(name, expected):
    assert safe_filename(name) == expected


def test_the_header_quotes_an_ascii_name_and_encodes_another_script():
    assert content_disposition('a "b".csv') == 'attachment; filename="a-b.csv"'
    assert content_disposition("داده.json") == "attachment; filename*=utf-8''%D8%AF%D8%A7%D8%AF%D9%87.json"
