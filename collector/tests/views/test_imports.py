"""The round's import page (``views/imports.py``): preview a CODAH TSV or JSON file, see every bad
row by line as ``manage.py import_codah`` lists them, import the previewed file, store nothing on error."""
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils.html import escape

from collector.models import Question

pytestmark = pytest.mark.django_db

GOOD_TSV = ("i\tHe kicked the bucket. He\tdied.\tlives.\tdances.\tsings.\t0\n"
            "\tShe smiled. She\tfrowned.\tgrinned.\twept.\tslept.\t1\n")
# Line 2: an unknown category letter and an index out of range; line 4 (after a blank line): an empty answer.
BAD_TSV = ("n\tNo one came. The room was\tfull.\tempty.\tloud.\tred.\t1\n"
           "x\tHe ran. He\tsat.\tstood.\tlay.\tjumped.\t7\n\n"
           "o\tIt rained. She\t\tsang.\tslept.\tran.\t0\n")


def _upload(text: str, name: str = "questions.tsv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="text/plain")


def _post(client, round_, **data):
    return client.post(reverse("collector:round_import", args=[round_.pk]), data)


def test_the_round_page_links_to_its_import_page(client, round_, instructor):
    client.force_login(instructor)
    page = client.get(reverse("collector:round_detail", args=[round_.pk])).content.decode()
    assert f'href="{reverse("collector:round_import", args=[round_.pk])}">Import questions</a>' in page
    form = client.get(reverse("collector:round_import", args=[round_.pk])).content.decode()
    assert 'enctype="multipart/form-data"' in form and 'name="action" value="preview"' in form


def test_a_preview_shows_the_questions_and_stores_nothing_until_the_import(client, round_, instructor):
    client.force_login(instructor)
    preview = _post(client, round_, file=_upload(GOOD_TSV), action="preview", source_dataset="codah")
    html = preview.content.decode()
    assert preview.status_code == 200 and Question.objects.count() == 0
    assert "Preview: 2 questions in questions.tsv" in html and "Read as CODAH TSV" in html
    assert "He kicked the bucket. He" in html and "<strong>died.</strong>" in html and "idioms" in html
    assert "codah (odc-by)" in html
    token = html.split('name="staged" value="')[1].split('"')[0]
    # The import needs no second upload: the previewed file is kept on the server.
    done = _post(client, round_, staged=token, staged_name="questions.tsv", action="import", source_dataset="codah")
    assert done.status_code == 302 and done["Location"] == reverse("collector:round_detail", args=[round_.pk])
    assert list(Question.objects.order_by("pk").values_list("prompt", "source", "status", "author")) == [
        ("He kicked the bucket. He", "imported", "accepted", instructor.pk),
        ("She smiled. She", "imported", "accepted", instructor.pk)]
    round_.refresh_from_db()
    assert (round_.source_dataset, round_.source_license) == ("codah", "odc-by")
    # Imported once: the same token imports nothing more.
    again = _post(client, round_, staged=token, action="import")
    assert again.status_code == 200 and "no longer kept" in again.content.decode() and Question.objects.count() == 2


def test_bad_rows_are_listed_by_line_as_the_command_lists_them_and_nothing_is_stored(client, tmp_path, round_,
                                                                                        instructor):
    path = tmp_path / "bad.tsv"
    path.write_text(BAD_TSV, encoding="utf-8")
    with pytest.raises(CommandError) as command:
        call_command("import_codah", str(path), "--round", round_.name, stdout=io.StringIO())
    expected = [line.split(": ", 1) for line in str(command.value).splitlines()[1:]]
    assert [where for where, _ in expected] == ["line 2", "line 4"]

    client.force_login(instructor)
    for action in ("preview", "import"):  # an import without a preview checks the same
        html = _post(client, round_, file=_upload(BAD_TSV), action=action).content.decode()
        assert 'id="import-problems" role="alert" tabindex="-1"' in html
        assert "Nothing was imported: the file has 2 problems" in html
        for where, message in expected:
            assert f'data-field-link="id_file">{where}</a>: {escape(message)}' in html
        assert 'name="staged"' not in html and "Preview:" not in html
    assert Question.objects.count() == 0


def test_json_lines_of_a_round_export_and_json_arrays_are_imported(client, round_, instructor):
    records = [{"id": 7, "author": "alice", "prompt": "The glass fell. It", "choices": ["broke.", "sang.", "flew.",
               "ate."], "answer": 0, "categories": ["negation"], "live_prediction": None},
               {"prompt": "He smiled. He", "choices": ["was happy.", "was sad.", "slept.", "left."], "answer": 0}]
    client.force_login(instructor)
    lines = "\n".join(json.dumps(record) for record in records) + "\n"
    html = _post(client, round_, file=_upload(lines, "export.jsonl"), action="preview").content.decode()
    assert "Preview: 2 questions in export.jsonl" in html and "Read as JSON" in html
    bad = json.dumps([records[0], {**records[1], "answer": 9, "categories": ["colour"]}])
    html = _post(client, round_, file=_upload(bad, "array.json"), action="import").content.decode()
    assert ">item 2</a>: unknown category &#x27;colour&#x27;" in html and "got &#x27;9&#x27;" in html
    assert Question.objects.count() == 0
    token = _post(client, round_, file=_upload(lines), action="preview").content.decode().split(
        'name="staged" value="')[1].split('"')[0]
    assert _post(client, round_, staged=token, action="import").status_code == 302
    assert sorted(Question.objects.values_list("prompt", "categories")) == [
        ("He smiled. He", []), ("The glass fell. It", ["negation"])]


def test_a_missing_file_and_a_bad_source_are_marked_at_their_fields(client, round_, instructor):
    client.force_login(instructor)
    html = _post(client, round_, action="preview").content.decode()
    assert '<a href="#id_file" data-field-link="id_file">File</a>: Choose a file to import.' in html
    html = _post(client, round_, file=_upload(GOOD_TSV), action="preview", source_dataset="my-lab/quiz").content.decode()
    assert 'data-field-link="id_source_dataset">Source dataset</a>: Give the license of my-lab/quiz' in html
    not_utf8 = SimpleUploadedFile("latin1.tsv", GOOD_TSV.replace("He", "Hé").encode("latin-1"))
    html = _post(client, round_, file=not_utf8, action="preview").content.decode()
    assert 'data-field-link="id_file">File</a>: The file is not UTF-8 text.' in html
    assert Question.objects.count() == 0
