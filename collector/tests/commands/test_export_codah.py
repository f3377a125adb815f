import json
from io import StringIO

import pytest
from django.core.management import call_command

from collector import services
from collector.models import Question


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
    other = services.round_create(course=course, name="copy-round")
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
    services.question_submit(
        user=student, round_id=plain_round.pk, prompt="Line one.\nLine\ttwo. He",
        choices=["ran.", "sat.", "sang.", "slept."], correct_index=1,
    )
    out = StringIO()

    call_command("export_codah", "--round", plain_round.name, "--format", "tsv", "-", stdout=out)

    assert out.getvalue() == "o\tLine one. Line two. He\tran.\tsat.\tsang.\tslept.\t1\n"


@pytest.mark.django_db
def test_jsonl_export_has_one_record_per_question_with_live_prediction(tmp_path, student, plain_round, fake_model):
    question = services.question_submit(
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
    assert set(first) == {"id", "author", "prompt", "choices", "answer", "categories", "created_at", "live_prediction"}
    assert first["id"] == question.pk and first["author"] == student.username and first["answer"] == 0
    assert first["live_prediction"] == {
        "status": "done", "probs": [0.1, 0.2, 0.3, 0.4], "predicted": 3, "fooled": True,
        "model_version": plain_round.live_model.name,
    }
    assert records[1]["live_prediction"] is None  # imported questions are not scored live
    assert records[1]["categories"] == ["quantitative"]


@pytest.mark.django_db
def test_unknown_round_is_a_command_error(tmp_path):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="No round is named"):
        call_command("export_codah", "--round", "nope", str(tmp_path / "x.tsv"))
