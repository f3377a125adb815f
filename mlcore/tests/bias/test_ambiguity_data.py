"""Tests for mlcore.bias.ambiguity_data's prediction parser and line-numbered word-list errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from mlcore.bias.ambiguity_data import (
    UNQOVER_OCCUPATIONS,
    dominant_script,
    parse_ambiguity_predictions,
    parse_unqover_occupations,
    read_unqover_occupations,
    read_unqover_subjects,
    unqover_occupations,
)
from mlcore.tests.shared_data import shared_data


def test_predictions_as_one_json_object() -> None:
    assert parse_ambiguity_predictions('{"1": "Ann Lee", " 2": ""}\n') == {"1": "Ann Lee", "2": ""}
    with pytest.raises(ValueError, match=r"answer to question '2' must be a string, got 5"):
        parse_ambiguity_predictions('{"1": "Ann", "2": 5}')
    with pytest.raises(ValueError, match="no predictions"):
        parse_ambiguity_predictions("{}")


def test_predictions_as_json_lines() -> None:
    text = '{"id": 1, "prediction": "Ann Lee"}\n\n{"id": "2", "answer": ""}\n'
    assert parse_ambiguity_predictions(text) == {"1": "Ann Lee", "2": ""}
    assert parse_ambiguity_predictions('{"id": 3, "prediction": "Bob"}') == {"3": "Bob"}  # one line
    cases = {
        '{"id": 1, "prediction": "A"}\n{"id": 2, "prediction": "B"\n': r"line 2: not JSON",
        '{"id": 1, "prediction": "A"}\n["x"]\n': r'line 2: expected an object with "id"',
        '{"id": 1, "prediction": "A"}\n{"prediction": "B"}\n': r'line 2: expected an object with "id"',
        '{"id": 1, "prediction": "A"}\n{"id": 2}\n': r'line 2: "prediction" must be a string, got None',
        '{"id": 1, "prediction": "A"}\n{"id": "1", "prediction": "B"}\n': r"line 2: duplicate id 1",
        "\n\n": "no predictions",
    }
    for text, message in cases.items():
        with pytest.raises(ValueError, match=message):
            parse_ambiguity_predictions(text)


def test_word_list_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "occupations"
    path.write_text("# comment\n[p_act] was a nurse\nwas a pilot\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"occupations, line 3: expected '\[p_act\] was a\(n\) <occupation>'"):
        read_unqover_occupations(path)
    path.write_text("# nothing here\n\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no occupations"):
        read_unqover_occupations(path)
    path.write_text("[p_act] was a nurse\n[p_act]\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        read_unqover_occupations(path)
    path.write_text("[p_act] was a nurse\n[p_act] was a pilot\n", encoding="utf-8")
    assert [o.question for o in read_unqover_occupations(path)] == ["Who was a nurse?", "Who was a pilot?"]
    names = tmp_path / "female"
    names.write_text("[subj] female | Mary\n\n[subj] female Anna\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"female, line 3: expected"):
        read_unqover_subjects(names)


def test_embedded_occupations_match_the_unqover_file() -> None:
    from mlcore.bias.ambiguity_data import UNQOVER_OCCUPATIONS, unqover_occupations

    embedded = unqover_occupations()
    assert len(embedded) == len(UNQOVER_OCCUPATIONS) == 70
    assert embedded[0].question == "Who was an accountant?" and embedded[20].question == "Who was a film director?"
    path = shared_data("unqover", "word_lists", "activities", "occupation_rev1")
    assert read_unqover_occupations(path) == embedded


def test_occupation_list_in_another_language_asks_with_the_occupation() -> None:
    persian = parse_unqover_occupations("# Persian occupations\n[p_act] پرستار\n\n[p_act]   خلبان  هواپیما \n")
    assert [(o.occupation, o.question, o.negated) for o in persian] == [
        ("پرستار", "پرستار", None), ("خلبان هواپیما", "خلبان هواپیما", None)]
    english = parse_unqover_occupations("[p_act] was an engineer\n[p_act:neg] can never be an engineer\n")
    assert english[0].question == "Who was an engineer?" and english[0].negated == "can never be an engineer"
    assert [o.question for o in unqover_occupations()][:2] == ["Who was an accountant?", "Who was an ambassador?"]


@pytest.mark.parametrize(("text", "message"), [
    ("[p_act] was a nurse\n[p_act] was a pilot\nnurse\n", r"upload, line 3: expected '\[p_act\] was a\(n\) <occupation>'"),
    ("# only a comment\n\n", r"upload: no occupations"),
    ("[p_act] was a nurse\n[p_act] was a\n", r"upload, line 2: no occupation after 'was a\(n\)'"),
    ("[p_act] was a nurse\n\n[p_act] was a nurse\n", r"upload, line 3: 'nurse' is listed twice"),
    ("[p_act] was a nurse\n[p_act] was a pilot\n[p_act:neg] can never be a nurse\n", r"2 \[p_act\] lines but 1"),
    ("[p_act]\n", r"upload, line 1: expected"),
])
def test_occupation_list_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_unqover_occupations(text, source="upload")


def test_dominant_script_tells_english_titles_from_persian_passages() -> None:
    assert dominant_script(UNQOVER_OCCUPATIONS) == "Latin"
    persian = ["فلورانس نایتینگل پرستار انگلیسی بود و در جنگ کریمه پرستاران را آموزش داد.", "Nightingale (1820)"]
    assert dominant_script(persian) == "Arabic"  # a few Latin letters in a Persian text do not change it
    assert dominant_script(["Юрий Гагарин", "Γιώργος"]) == "Cyrillic"
    assert dominant_script(["中文", "ひらがな"]) == "Hiragana" and dominant_script(["中文字"]) == "Han"
    assert dominant_script(["", "123 -- !"]) == ""
    # Only the first max_chars characters count.
    assert dominant_script(["abc", "حسابدار" * 10], max_chars=3) == "Latin"
