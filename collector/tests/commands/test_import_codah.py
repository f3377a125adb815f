import pytest
from django.core.management import CommandError, call_command

from collector.models import Question
from collector.tests.factories import GOOD_ROWS, tsv


def run(*args) -> str:
    from io import StringIO

    out = StringIO()
    call_command("import_codah", *map(str, args), stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_imports_every_row_with_course_owner_as_author(tmp_path, plain_round, good_tsv_text, instructor):
    path = tmp_path / "good.tsv"
    path.write_text(good_tsv_text, encoding="utf-8")

    output = run(path, "--round", plain_round.name)

    assert f"Imported 8 questions into round {plain_round.name}" in output
    questions = Question.objects.filter(round=plain_round)
    assert questions.count() == 8
    assert set(questions.values_list("author", flat=True)) == {instructor.pk}
    assert set(questions.values_list("source", flat=True)) == {"imported"}
    first = questions.get(prompt=GOOD_ROWS[0][1])
    assert first.choices == list(GOOD_ROWS[0][2:6]) and first.correct_index == 0
    assert first.categories == ["quantitative"]
    plain_round.refresh_from_db()  # CODAH unless told otherwise, with its license (ODC-By)
    assert (plain_round.source_dataset, plain_round.source_license) == ("codah", "odc-by")


@pytest.mark.django_db
def test_source_options_record_another_dataset_or_nothing(tmp_path, plain_round, good_tsv_text, course):
    from collector.services.rounds import round_create

    path = tmp_path / "good.tsv"
    path.write_text(good_tsv_text, encoding="utf-8")
    run(path, "--round", plain_round.name, "--source-dataset", "my-lab/quiz", "--source-license", "CC-BY-4.0")
    plain_round.refresh_from_db()
    assert (plain_round.source_dataset, plain_round.source_license) == ("my-lab/quiz", "cc-by-4.0")
    other = round_create(course=course, name="r-none", categories=list(plain_round.categories))
    run(path, "--round", other.name, "--source-dataset", "")
    other.refresh_from_db()
    assert (other.source_dataset, other.source_license) == ("", "")
    with pytest.raises(CommandError, match="Give the license of my-lab/other"):
        run(path, "--round", other.name, "--source-dataset", "my-lab/other")


@pytest.mark.django_db
def test_author_option_sets_the_author(tmp_path, plain_round, good_tsv_text, student):
    path = tmp_path / "good.tsv"
    path.write_text(good_tsv_text, encoding="utf-8")

    run(path, "--round", plain_round.name, "--author", student.username)

    assert set(Question.objects.values_list("author", flat=True)) == {student.pk}


@pytest.mark.django_db
def test_bad_rows_are_reported_by_line_and_nothing_is_stored(tmp_path, plain_round):
    rows = [
        GOOD_ROWS[0],  # line 1 is fine
        ("q", "Too few fields", "a", "b", "c"),  # line 2
        ("q", "Bad index. He", "a.", "b.", "c.", "d.", 7),  # line 3
        ("x", "Unknown letter. He", "a.", "b.", "c.", "d.", 0),  # line 4
        ("q", "   ", "a.", "b.", "c.", "d.", 0),  # line 5: empty prompt
        ("q", "Same answers. He", "ran.", "Ran.", "c.", "d.", 0),  # line 6
    ]
    path = tmp_path / "bad.tsv"
    path.write_text(tsv(rows), encoding="utf-8")

    with pytest.raises(CommandError) as caught:
        run(path, "--round", plain_round.name)

    message = str(caught.value)
    assert "5 bad row(s), nothing imported" in message
    assert "line 1:" not in message
    assert "line 2: expected 7 tab-separated fields, found 5" in message
    assert "line 3: correct answer index must be one of 0, 1, 2, 3" in message
    assert "line 4: unknown category letter(s) 'x'" in message
    assert "line 5: prompt is empty" in message
    assert "line 6: two answers are the same" in message
    assert Question.objects.count() == 0


@pytest.mark.django_db
def test_user_mistakes_are_command_errors(tmp_path, plain_round, good_tsv_text):
    path = tmp_path / "good.tsv"
    path.write_text(good_tsv_text, encoding="utf-8")

    with pytest.raises(CommandError, match="No round is named 'nope'"):
        run(path, "--round", "nope")
    with pytest.raises(CommandError, match="No user is named 'ghost'"):
        run(path, "--round", plain_round.name, "--author", "ghost")
    with pytest.raises(CommandError, match="Cannot read"):
        run(tmp_path / "missing.tsv", "--round", plain_round.name)
    empty = tmp_path / "empty.tsv"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(CommandError, match="no questions"):
        run(empty, "--round", plain_round.name)
    assert Question.objects.count() == 0
