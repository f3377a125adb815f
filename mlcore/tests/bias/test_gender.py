"""Tests for mlcore.bias.gender: first-name gender lookups for the retrieval-ambiguity probe."""

from __future__ import annotations

from pathlib import Path

import pytest

from mlcore.bias.gender import (
    GenderGuesserLookup,
    LexiconLookup,
    answer_gender,
    answer_group,
    first_name,
    parse_name_lexicon,
    read_name_lexicon,
    subject_gender,
    subject_groups,
)
from mlcore.tests.shared_data import shared_data

LEXICON = LexiconLookup({"ada": "female", "jean": "male", "mary": "female", "james": "male"}, "test lexicon")


def _subjects(name: str) -> Path:
    return shared_data("unqover", "word_lists", "nouns", "subjects", name)


def test_first_name_drops_disambiguation_and_punctuation() -> None:
    assert first_name("Marie Curie (physicist)") == "Marie"
    assert first_name('"Ada" Lovelace') == "Ada"
    assert first_name("Jean-Baptiste Biot") == "Jean-Baptiste"
    assert first_name("(disambiguation)") == "" and first_name("") == ""


def test_subject_gender_with_a_lexicon() -> None:
    assert subject_gender("Ada Lovelace", LEXICON) == "female"
    assert subject_gender("ADA LOVELACE", LEXICON) == "female"  # case-insensitive
    assert subject_gender("Jean-Baptiste Biot", LEXICON) == "male"  # falls back to the first part
    assert subject_gender("Paris", LEXICON) == "unknown"
    assert subject_groups(["Ada Lovelace", "Paris", "James Watt", "Ada Lovelace"], LEXICON) == (
        "female", "unknown", "male", "female")


def test_gender_guesser_lookup_counts_only_definite_answers() -> None:
    strict = GenderGuesserLookup()
    assert subject_gender("Florence Nightingale", strict) == "female"
    assert subject_gender("James Watt", strict) == "male"
    assert subject_gender("Jean-Baptiste Biot", strict) == "male"
    # The dictionary rates "The" mostly_female: only the opt-in setting turns a band into a woman.
    assert subject_gender("The Beatles", strict) == "unknown"
    assert subject_gender("The Beatles", GenderGuesserLookup(include_mostly=True)) == "female"
    assert subject_gender("Xqzwv Plorg", strict) == "unknown"
    assert "gender-guesser 0.4.0" in strict.description and "definite" in strict.description
    assert strict.first_name_gender("") == "unknown"


def test_answer_group_matches_answer_gender_on_a_lexicon() -> None:
    lexicon = {"mary": "female", "james": "male"}
    for answer in ("Dr. Mary Smith", "the engineer", "James Watt and Mary Smith", "", "Smith, James"):
        expected = answer_gender(answer, lexicon)
        assert answer_group(answer, LexiconLookup(lexicon)) == expected
    assert answer_group("Florence Nightingale", GenderGuesserLookup()) == "female"
    assert answer_group("the engineer", GenderGuesserLookup()) == "neutral"


def test_parse_name_lexicon_formats_and_errors() -> None:
    text = "# names\n[subj] female | Mary\n\nJames\tmale\nAda,Female\n"
    assert parse_name_lexicon(text) == {"mary": "female", "james": "male", "ada": "female"}
    with pytest.raises(ValueError, match=r"names\.txt, line 2: expected"):
        parse_name_lexicon("Mary,female\nJames male\n", source="names.txt")
    with pytest.raises(ValueError, match=r"line 1: gender must be 'female' or 'male', got 'woman'"):
        parse_name_lexicon("Mary,woman")
    with pytest.raises(ValueError, match=r"line 3: 'MARY' is listed as both female and male"):
        parse_name_lexicon("Mary,female\n\nMARY,male")
    with pytest.raises(ValueError, match="no names"):
        parse_name_lexicon("# only a comment\n\n")


def test_read_name_lexicon_files(tmp_path: Path) -> None:
    female, male = tmp_path / "female", tmp_path / "male"
    female.write_text("[subj]  female | Mary\n", encoding="utf-8")
    male.write_text("[subj] male | James\n[subj] male | Mary\n", encoding="utf-8")
    with pytest.raises(ValueError, match="'mary' is male here but female in an earlier file"):
        read_name_lexicon(female, male)
    with pytest.raises(ValueError, match="cannot read names file"):
        read_name_lexicon(tmp_path / "missing")
    with pytest.raises(ValueError, match="at least one"):
        read_name_lexicon()
    male.write_text("[subj] male | James\n", encoding="utf-8")
    lookup = read_name_lexicon(female, male)
    assert lookup.lexicon == {"mary": "female", "james": "male"}
    assert lookup.description == "names lexicon female, male"


def test_unqover_name_lists_as_lexicon() -> None:
    lookup = read_name_lexicon(_subjects("female"), _subjects("male"))
    assert len(lookup.lexicon) == 140
    assert subject_gender("Mary Jackson", lookup) == "female" and subject_gender("James Watt", lookup) == "male"
