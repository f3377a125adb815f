"""The edges, sent to every way in that takes them: JSON nested 5,000 deep, a 5,000-digit number,
NaN, a NUL, a lone surrogate, a websocket path that does not exist, a name that breaks a header.

The one bounded JSON reader (``mlcore.data.bounded_json``, behind the API's parser, the websocket
base and every import) and the one text rule (``core.validators``) answer each with a 4xx, a form
or page that names the problem, or a CommandError, and nothing is stored (``counts`` of
``test_bad_input.py``). The websocket messages are among that file's ``WS_CASES``.
"""
import html
import json
import logging
import re
from urllib.parse import unquote

import pytest
from channels.testing import WebsocketCommunicator
from django.core.management import CommandError, call_command
from django.urls import reverse
from rest_framework.test import APIClient

from tests.test_bad_input import GOOD, GOOD_ROW, counts

DEEP = "[" * 5000 + "]" * 5000
DIGITS = "9" * 5000
NESTED_REFUSED = "nested deeper than 64 levels"
DIGITS_REFUSED = "more than 50 digits"
NUL_REFUSED = "Null characters are not allowed"
SURROGATE_REFUSED = "Surrogate characters are not allowed: U+D800"

# JSON bodies of the REST API: (raw body, what the 400 says).
API_BODIES = {
    "nested 5,000 deep": (DEEP, NESTED_REFUSED),
    "nested 5,000 deep inside a field": ('{"round_id": 1, "prompt": ' + DEEP + "}", NESTED_REFUSED),
    "a 5,000-digit integer": ('{"round_id": ' + DIGITS + "}", DIGITS_REFUSED),
    "NaN": ('{"round_id": NaN}', "NaN is not a JSON number"),
    "a float beyond any double": ('{"round_id": 1e999}', "a number is too large"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", API_BODIES)
def test_api_submit_refuses_json_beyond_the_limits(case, student, round_):
    raw, expected = API_BODIES[case]
    api = APIClient()
    api.force_authenticate(student)
    before = counts()
    response = api.generic("POST", reverse("api:question_submit"), raw, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert expected in response.json()["detail"]
    assert counts() == before


@pytest.mark.django_db
def test_api_refuses_a_body_over_the_upload_limit_with_413(student, round_, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    api = APIClient()
    api.force_authenticate(student)
    before = counts()
    body = json.dumps({**GOOD, "round_id": round_.pk, "prompt": "x" * 2000})
    response = api.generic("POST", reverse("api:question_submit"), body, content_type="application/json")
    assert response.status_code == 413 and "larger than 1,000 bytes" in response.json()["detail"]
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("text,expected", [("The man\x00 ate. He", NUL_REFUSED), ("The man\ud800 ate.", "Surrogate")])
def test_api_submit_refuses_unstorable_text(text, expected, student, round_):
    api = APIClient()
    api.force_authenticate(student)
    before = counts()
    body = json.dumps({**GOOD, "round_id": round_.pk, "prompt": text})  # ensure_ascii: \\u0000, \\ud800
    response = api.generic("POST", reverse("api:question_submit"), body, content_type="application/json")
    assert response.status_code == 400 and expected in json.dumps(response.json()["prompt"])
    assert counts() == before


@pytest.fixture
def worker_session(instructor, crowdworker):
    """A crowdworker's open authoring session (its draft is what the draft API saves)."""
    from annotation.tests.factories import EN_CONTEXT, add_paragraphs, api_client, make_project, task_next

    project = make_project(instructor, name="edges")
    add_paragraphs(project, [EN_CONTEXT])
    client = api_client(crowdworker)
    return client, task_next(client, project).json()["session"]["id"]


DRAFT_BODIES = {
    **API_BODIES,
    "nested 5,000 deep in the draft": ('{"draft": ' + DEEP + "}", NESTED_REFUSED),
    "nul in the draft question": (json.dumps({"draft": {"question": "Who\x00?"}}), NUL_REFUSED),
    "lone surrogate in the draft question": (json.dumps({"draft": {"question": "Who\ud800?"}}), SURROGATE_REFUSED),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", DRAFT_BODIES)
def test_annotation_draft_api_refuses_the_edges_and_keeps_the_draft(case, worker_session):
    from annotation.models import AnnotationSession

    client, session_id = worker_session
    raw, expected = DRAFT_BODIES[case]
    before = AnnotationSession.objects.values_list("draft", flat=True).get(pk=session_id)
    response = client.generic("POST", reverse("annotation_api:session_draft", args=[session_id]), raw,
                              content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert expected in json.dumps(response.json(), ensure_ascii=False)
    assert AnnotationSession.objects.values_list("draft", flat=True).get(pk=session_id) == before


# Import files, each to the page form, the API and the command that take it: (kind, text, expected).
SQUAD_CONTEXT = "The Nile meets the sea."


def _squad_text(context: str = SQUAD_CONTEXT, question: str = "Where?", answer_start: str = "4") -> str:
    qas = [{"id": "q1", "question": question, "answers": [{"text": "Nile", "answer_start": 4}], "is_impossible": False}]
    text = json.dumps({"version": "v2.0", "data": [{"title": "Nile", "paragraphs": [{"context": context, "qas": qas}]}]})
    return text.replace('"answer_start": 4', f'"answer_start": {answer_start}')


def _article_line(**fields) -> str:
    return json.dumps({"title": "A", "paragraphs": ["x" * 600], "links": [], **fields})


IMPORT_FILES = {
    "squad nested 5,000 deep": ("squad", DEEP, NESTED_REFUSED),
    "squad with a 5,000-digit answer_start": ("squad", _squad_text(answer_start=DIGITS), DIGITS_REFUSED),
    "squad with a 5,000-digit id": ("squad", _squad_text().replace('"q1"', DIGITS), DIGITS_REFUSED),
    "squad with a lone surrogate in a context": ("squad", _squad_text(context="The Nile\ud800 meets the sea."),
                                                 SURROGATE_REFUSED),
    "squad with a nul in a question": ("squad", _squad_text(question="Where\x00?"), NUL_REFUSED),
    "articles nested 5,000 deep": ("articles", '{"title": "A", "paragraphs": ' + DEEP + "}", NESTED_REFUSED),
    "articles with a 5,000-digit number": ("articles", _article_line(links=[]).replace("[]", DIGITS), DIGITS_REFUSED),
    "articles with a nul in a paragraph": ("articles", _article_line(paragraphs=["x\x00" * 300]), NUL_REFUSED),
    "articles with a lone surrogate in the title": ("articles", _article_line(title="A\ud800"), SURROGATE_REFUSED),
    "codah with a nul in the prompt": ("codah", GOOD_ROW.replace("pizza", "pi\x00zza"), NUL_REFUSED),
}
FILE_NAMES = {"squad": "file.json", "articles": "file.jsonl", "codah": "file.tsv"}


@pytest.fixture
def import_project(instructor):
    from annotation.tests.factories import make_project

    return make_project(instructor, name="imports")


def _upload(kind: str, text: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(FILE_NAMES[kind], text.encode("utf-8"))


@pytest.mark.django_db
@pytest.mark.parametrize("case", IMPORT_FILES)
def test_import_api_refuses_the_edges(case, instructor, import_project, round_):
    kind, text, expected = IMPORT_FILES[case]
    api = APIClient()
    api.force_authenticate(instructor)
    url, data = {
        "squad": (reverse("annotation_api:project_import_squad", args=[import_project.pk]), {"split": "test"}),
        "articles": (reverse("annotation_api:project_import_articles", args=[import_project.pk]), {}),
        "codah": (reverse("api:round_import", args=[round_.pk]), {}),
    }[kind]
    before = counts()
    response = api.post(url, {"file": _upload(kind, text), **data}, format="multipart")
    assert response.status_code == 400, response.content[:300]
    assert expected in " ".join(response.json()["file"])
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("case", [name for name, (kind, _, _) in IMPORT_FILES.items() if kind != "codah"])
def test_import_page_refuses_the_edges(case, client, instructor, import_project):
    kind, text, expected = IMPORT_FILES[case]
    client.force_login(instructor)
    before = counts()
    response = client.post(reverse("annotation:project_import", args=[import_project.pk]),
                           {"which": kind, "split": "test", "file": _upload(kind, text)})
    assert response.status_code == 200  # the page again, with the problem
    assert expected in html.unescape(response.content.decode())
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("case", IMPORT_FILES)
def test_import_commands_refuse_the_edges(case, import_project, round_, tmp_path):
    kind, text, expected = IMPORT_FILES[case]
    path = tmp_path / FILE_NAMES[kind]
    path.write_text(text, encoding="utf-8")
    command = {"squad": ("import_squad", str(path), "--project", import_project.name, "--split", "test"),
               "articles": ("import_articles", str(path), "--project", import_project.name),
               "codah": ("import_codah", str(path), "--round", round_.name)}[kind]
    before = counts()
    with pytest.raises(CommandError) as raised:
        call_command(*command)
    assert expected in str(raised.value)
    assert counts() == before


# Ambiguity probe inputs (stored as text): (form field, file content, what the refusal says).
AMBIGUITY_FILES = {
    "questions nested 5,000 deep": ("ambiguity_questions_file", '{"id": 1, "options": ' + DEEP + "}", NESTED_REFUSED),
    "questions with a 5,000-digit id": ("ambiguity_questions_file", '{"id": ' + DIGITS + "}", DIGITS_REFUSED),
    "questions with a nul": ("ambiguity_questions_file", json.dumps({
        "id": 1, "name": "law", "question": "Who", "context": "", "options": [{"name": "Ann Lee", "gender": "female"}]
    }).replace("Who", "Who\x00"), NUL_REFUSED),
    "occupations with a nul": ("occupations_file", "[p_act] nurse\x00\n[p_act] pilot", NUL_REFUSED),
}


@pytest.mark.django_db
@pytest.mark.parametrize("way", ["api", "page"])
@pytest.mark.parametrize("case", AMBIGUITY_FILES)
def test_ambiguity_uploads_refuse_the_edges(case, way, client, instructor, import_project, monkeypatch):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from evaluation.services import reports as report_services

    monkeypatch.setattr(report_services, "evaluation_schedule", lambda *, run_id: None)
    field, text, expected = AMBIGUITY_FILES[case]
    if field == "ambiguity_questions_file":
        from evaluation.tests.ambiguity_data import with_qa_model

        with_qa_model(import_project)  # a question set is read only for a project with a QA model
    upload = SimpleUploadedFile("inputs.txt", (text + "\n").encode("utf-8"))
    before = counts()
    if way == "api":
        api = APIClient()
        api.force_authenticate(instructor)
        response = api.post(reverse("evaluation_api:project_run_start", args=[import_project.pk]),
                            {field: upload}, format="multipart")
        assert response.status_code == 400, response.content[:300]
        assert expected in response.json()[field][0]
    else:
        client.force_login(instructor)
        response = client.post(reverse("evaluation:project_report_start", args=[import_project.pk]),
                               {"k": "5", "p0": "uniform", "max_steps": "10", "seed": "0", field: upload}, follow=True)
        page = html.unescape(response.content.decode())
        assert response.status_code == 200 and "Report not started." in page and expected in page
    assert counts() == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/nowhere/", "/ws/author/", "/ws/author/1/extra/", "/"])
async def test_a_websocket_path_that_does_not_exist_is_refused_at_the_handshake(path):
    from config.asgi import application  # (importing it sets logging up again: caplog would miss the line)

    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append
    logging.getLogger("core.sockets").addHandler(handler)
    communicator = WebsocketCommunicator(application, path, headers=[(b"host", b"localhost"),
                                                                     (b"origin", b"http://localhost")])
    try:
        connected, _ = await communicator.connect(timeout=10)
        await communicator.wait()
    finally:
        logging.getLogger("core.sockets").removeHandler(handler)
    assert not connected  # a closed handshake (403), not a server error
    refusals = [record for record in records if "no route" in record.getMessage()]
    assert len(refusals) == 1 and not refusals[0].exc_info  # one line, no traceback


@pytest.mark.django_db
@pytest.mark.parametrize("name", ['my "best"\r\nSet-Cookie: x=1', "a/../b;c\\d", "..hidden", "داده‌های من"])
def test_a_download_of_a_project_named_anything_has_a_safe_file_name(name, client, instructor):
    api = APIClient()
    api.force_authenticate(instructor)
    created = api.post(reverse("annotation_api:project_create"), {"name": name, "language": "en"}, format="json")
    assert created.status_code == 201, created.content[:300]
    client.force_login(instructor)
    response = client.get(reverse("evaluation:project_export", args=[created.json()["id"]]))
    assert response.status_code == 200
    # One parameter: a plain quoted name, or (another script) RFC 6266's percent-encoded filename*.
    disposition = re.fullmatch(r'attachment; (?:filename="([^"]*)"|filename\*=utf-8\'\'(\S+))',
                               response["Content-Disposition"])
    assert disposition, response["Content-Disposition"]
    filename = disposition.group(1) or unquote(disposition.group(2))
    assert re.fullmatch(r"[^\W_.-][\w.-]*\.json", filename), filename  # letters, digits, '.', '_', '-' only
    assert "Set-Cookie" not in response.headers
