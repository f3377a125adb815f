import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from collector.services.questions import question_submit


def stats_json(round_name: str) -> dict:
    out = StringIO()
    call_command("round_stats", "--round", round_name, "--json", stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.django_db
def test_json_counts_questions_categories_and_fooled(tmp_path, student, plain_round, good_tsv_text, fake_model):
    path = tmp_path / "good.tsv"
    path.write_text(good_tsv_text, encoding="utf-8")
    call_command("import_codah", str(path), "--round", plain_round.name, stdout=StringIO())
    # fake_model always picks completion 3: fooled when the key is 0, not when it is 3.
    for answer in (0, 3):
        question_submit(
            user=student, round_id=plain_round.pk, prompt=f"Answer {answer}. He",
            choices=["ran.", "sat.", "sang.", "slept."], correct_index=answer, categories=["negation"],
        )

    stats = stats_json(plain_round.name)

    assert stats["questions"] == 10
    assert stats["categories"] == {
        "idioms": 2, "reference": 2, "polysemy": 1, "negation": 4, "quantitative": 2, "other": 1,
    }
    assert stats["fooled_live"] == 1
    assert stats["predicted_live"] == 2


@pytest.mark.django_db
def test_empty_round_and_readable_table(plain_round):
    assert stats_json(plain_round.name)["questions"] == 0
    out = StringIO()
    call_command("round_stats", "--round", plain_round.name, stdout=out)
    table = out.getvalue()
    assert "Questions" in table and "idioms" in table and "Fooled the live model" in table


@pytest.mark.django_db
def test_unknown_round_is_a_command_error():
    with pytest.raises(CommandError, match="No round is named 'nope'"):
        call_command("round_stats", "--round", "nope", "--json")
