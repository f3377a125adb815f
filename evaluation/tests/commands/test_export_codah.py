"""``manage.py export_codah``: a round's questions as CODAH TSV or JSON lines, optionally with an
evaluation report's weights."""
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from collector.models import Question
from collector.services.questions import question_submit
from collector.services.rounds import round_create
from evaluation.selectors.exports import evaluation_run_weights


def import_text(tmp_path, round_name: str, text: str) -> None:
    path = tmp_path / f"in-{round_name}.tsv"
    path.write_text(text, encoding="utf-8")
    call_command("import_codah", str(path), "--round", round_name, stdout=StringIO())


@pytest.mark.django_db
def test_tsv_export_round_trips_through_import(tmp_path, course, plain_round, good_tsv_text):
    import_text(tmp_path, plain_round.name, good_tsv_text)
    out_path = tmp_path / "out.tsv"
    out = StringIO()

    call_command("export_codah", "--round", plain_round.name, "--format", "tsv", str(out_path), stdout=out)

    assert f"Exported 8 questions from round {plain_round.name}" in out.getvalue()
    assert out_path.read_text(encoding="utf-8") == good_tsv_text
    other = round_create(course=course, name="copy-round")
    import_text(tmp_path, other.name, out_path.read_text(encoding="utf-8"))

    def contents(round_):
        return [
            (q.prompt, q.choices, q.correct_index, q.categories)
            for q in Question.objects.filter(round=round_).order_by("id")
        ]

    assert contents(other) == contents(plain_round)


@pytest.mark.django_db
def test_tsv_export_keeps_rows_on_one_line(tmp_path, student, plain_round, fake_model):
    # Typed text may hold tabs or newlines; CODAH TSV cannot, so they become spaces.
    question_submit(
        user=student, round_id=plain_round.pk, prompt="Line one.\nLine\ttwo. He",
        choices=["ran.", "sat.", "sang.", "slept."], correct_index=1,
    )
    out = StringIO()

    call_command("export_codah", "--round", plain_round.name, "--format", "tsv", "-", stdout=out)

    assert out.getvalue() == "o\tLine one. Line two. He\tran.\tsat.\tsang.\tslept.\t1\n"


@pytest.mark.django_db
def test_jsonl_export_has_one_record_per_question_with_live_prediction(tmp_path, student, plain_round, fake_model):
    question = question_submit(
        user=student, round_id=plain_round.pk, prompt="It rained, so Omar",
        choices=["opened an umbrella.", "wore sunglasses.", "watered plants.", "lit a fire."],
        correct_index=0, categories=["other"],
    )
    import_text(tmp_path, plain_round.name, "q\tTwo plus two. It\tis four.\tis five.\tis six.\tis one.\t0\n")
    out_path = tmp_path / "out.jsonl"

    call_command("export_codah", "--round", plain_round.name, "--format", "jsonl", str(out_path), stdout=StringIO())

    records = [json.loads(line) for line in out_path.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 2
    first = records[0]
    assert set(first) == {"id", "author", "prompt", "choices", "answer", "categories", "created_at", "live_prediction",
                          "panel_predictions", "quality", "difficulty", "discrimination"}
    # No validator has answered yet: the item quality columns are there, empty.
    assert (first["quality"], first["difficulty"], first["discrimination"]) == (None, None, None)
    assert first["panel_predictions"] == [{  # one entry per panel model: here the live model alone
        "model_version": plain_round.live_model.name, "model_revision": "r", "role": "shown", "status": "done",
        "predicted": 3, "probs": [0.1, 0.2, 0.3, 0.4], "fooled": True,
    }]
    assert first["id"] == question.pk and first["author"] == student.username and first["answer"] == 0
    assert first["live_prediction"] == {
        "status": "done", "probs": [0.1, 0.2, 0.3, 0.4], "predicted": 3, "fooled": True,
        "model_version": plain_round.live_model.name,
    }
    assert records[1]["live_prediction"] is None  # imported questions are not scored live
    assert records[1]["categories"] == ["quantitative"]


@pytest.mark.django_db
def test_unknown_round_is_a_command_error(tmp_path):
    with pytest.raises(CommandError, match="No round is named"):
        call_command("export_codah", "--round", "nope", str(tmp_path / "x.tsv"))


@pytest.mark.django_db
def test_weights_from_a_report_add_four_columns_to_the_tsv(tmp_path, weighed_round, good_tsv_text):
    round_, run = weighed_round
    out_path = tmp_path / "weighted.tsv"
    out = StringIO()

    call_command("export_codah", "--round", round_.name, "--weights-from", str(run.pk), str(out_path), stdout=out)

    assert out.getvalue().strip() == (f"Exported 8 questions from round {round_.name} to {out_path} (tsv) "
                                      f"with the weights of evaluation report {run.pk}")
    weights = evaluation_run_weights(run_id=run.pk, round_=round_)
    ids = list(Question.objects.filter(round=round_).order_by("created_at", "id").values_list("pk", flat=True))
    lines = out_path.read_text(encoding="utf-8").splitlines()
    assert ["\t".join(line.split("\t")[:7]) for line in lines] == good_tsv_text.splitlines()
    assert [[float(w) for w in line.split("\t")[7:]] for line in lines] == [
        [weights[(qid, c)] for c in range(4)] for qid in ids]


@pytest.mark.django_db
def test_weights_from_a_report_in_jsonl(tmp_path, weighed_round):
    round_, run = weighed_round

    out = StringIO()
    call_command("export_codah", "--round", round_.name, "--format", "jsonl", "--weights-from", str(run.pk), "-",
                 stdout=out)

    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(records) == 8 and all(len(r["weights"]) == 4 for r in records)
    assert sum(w for r in records for w in r["weights"]) == pytest.approx(32, abs=1e-3)  # weights n·q have mean 1

