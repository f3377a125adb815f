"""``manage.py find_duplicates``: pairs of near-duplicate questions, as JSON or a table."""
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from collector.services.imports import codah_import
from collector.services.questions import question_submit
from collector.services.rounds import round_create
from collector.tests.factories import GOOD_ROWS, tsv

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = StringIO()
    call_command("find_duplicates", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def imported_with_copies(plain_round, student, instructor, fake_model):
    """The eight sample rows imported, and three lightly edited copies submitted by a student."""
    codah_import(round_=plain_round, text=tsv(GOOD_ROWS), author=instructor)
    edits = [
        ("SARA HAD FOUR APPLES AND ATE ONE. SHE", ["had three apples left.", "had five apples.", "had no apples.",
                                                   "had ten apples."], 0),  # letter case
        ("It began to rain heavily, so Omar", ["put on sunglasses.", "watered the lawn.", "opened his umbrella.",
                                                "lit a campfire."], 2),  # an inserted word
        ("The shop was not open, so Ana...", ["went home without bread!", "bought bread inside.",
                                              "paid the cashier.", "ate lunch there."], 0),  # punctuation, swapped
    ]
    copies = [question_submit(user=student, round_id=plain_round.pk, prompt=p, choices=c, correct_index=a)
              for p, c, a in edits]
    return plain_round, copies


def test_json_lists_every_copy_with_its_original(imported_with_copies):
    round_, copies = imported_with_copies
    result = json.loads(run("--round", round_.name, "--json"))
    pairs = {(pair["a"]["id"], pair["b"]["id"]): pair for pair in result["pairs"]}
    assert {b for _, b in pairs} == {copy.pk for copy in copies}
    for pair in result["pairs"]:
        assert set(pair) == {"a", "b", "similarity"} and 0.8 <= pair["similarity"] <= 1.0
        assert {"id", "prompt"} <= set(pair["a"]) and {"id", "prompt"} <= set(pair["b"])
    similarities = [pair["similarity"] for pair in result["pairs"]]
    assert similarities == sorted(similarities, reverse=True)


def test_a_strict_threshold_keeps_only_exact_word_sets(imported_with_copies):
    round_, copies = imported_with_copies
    result = json.loads(run("--round", round_.name, "--threshold", "1.0", "--json"))
    assert len(result["pairs"]) == 2  # case and punctuation/order copies; the inserted word is below 1.0


def test_table_and_empty_round(imported_with_copies, course):
    round_, _ = imported_with_copies
    assert "3 pair(s)." in run("--round", round_.name)
    empty = round_create(course=course, name="empty-round")
    assert run("--round", empty.name) == f"No near-duplicates in round {empty.name}.\n"
    assert json.loads(run("--round", empty.name, "--json")) == {"pairs": []}


@pytest.mark.parametrize("args, message", [(("--round", "nope"), "No round is named"),
                                           (("--round", "cmd-round", "--threshold", "2"), "threshold")])
def test_bad_arguments(plain_round, args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)
