"""``round_export_codah_tsv`` and ``round_export_records``, with and without an evaluation report's weights."""
import pytest

from collector import selectors, services
from collector.tests.factories import question_data
from evaluation.selectors.exports import evaluation_run_weights
from evaluation.tests.factories import artifact_questions, finished_report
from mlcore.data.codah import format_codah_tsv

pytestmark = pytest.mark.django_db


@pytest.fixture
def weighed_round(round_, student, instructor, fake_model):
    """Twelve questions and a finished report of them; returns the round, the report and its weights."""
    artifact_questions(student, round_)
    run = finished_report(instructor, round_=round_)
    return round_, run, evaluation_run_weights(run_id=run.pk, round_=round_)


def test_the_default_tsv_is_the_seven_column_file(weighed_round):
    round_, _, _ = weighed_round
    text = selectors.round_export_codah_tsv(round_=round_)

    assert text == format_codah_tsv(selectors.round_examples(round_=round_))
    assert text.splitlines()[0] == ("i\tQuestion 1 about idioms. They\tgladly helps friend 1.\tnever eats apple 1.\t"
                                    "never sings song 1.\tnever reads book 1.\t0")


def test_weights_add_one_column_per_choice_in_choice_order(weighed_round):
    round_, _, weights = weighed_round
    plain = selectors.round_export_codah_tsv(round_=round_).splitlines()

    weighted = selectors.round_export_codah_tsv(round_=round_, weights=weights).splitlines()

    ids = list(round_.questions.order_by("created_at", "id").values_list("pk", flat=True))
    assert len(weighted) == len(plain) == 12
    for qid, line, plain_line in zip(ids, weighted, plain):
        fields = line.split("\t")
        assert len(fields) == 11 and "\t".join(fields[:7]) == plain_line
        assert [float(w) for w in fields[7:]] == [weights[(qid, c)] for c in range(4)]
    # Reweighting moved weight between completions: they are not all 1.
    assert len({line.split("\t")[8] for line in weighted}) > 1


def test_questions_written_after_the_report_get_empty_weights(weighed_round, student):
    round_, _, weights = weighed_round
    later = services.question_submit(user=student, round_id=round_.pk, **question_data())

    last = selectors.round_export_codah_tsv(round_=round_, weights=weights).splitlines()[-1]

    assert last.startswith("o\t" + later.prompt) and last.split("\t")[7:] == ["", "", "", ""]


def test_jsonl_records_carry_weights_only_when_asked(weighed_round, student):
    round_, _, weights = weighed_round
    later = services.question_submit(user=student, round_id=round_.pk, **question_data())

    plain = selectors.round_export_records(round_=round_)
    weighted = selectors.round_export_records(round_=round_, weights=weights)

    assert all("weights" not in record for record in plain)
    assert [{k: v for k, v in record.items() if k != "weights"} for record in weighted] == plain
    first = weighted[0]
    assert first["weights"] == [weights[(first["id"], c)] for c in range(4)]
    assert weighted[-1]["id"] == later.pk and weighted[-1]["weights"] == [None, None, None, None]
