"""Bad input everywhere: forms, REST API, websocket messages and import files.

Every case must get a clear error (a 4xx with a message, a form re-shown with its error, a
websocket error message, or a CommandError naming the problem), never a 500, and must store
nothing: the counts of users, courses, rounds, questions, predictions and the annotation and
evaluation rows imports write are compared before and after each case.

The edges (JSON nested 5,000 deep, a 5,000-digit number, NaN, a NUL, a lone surrogate) sent to
every other way in are in ``test_bad_input_edges.py``.
"""
import html
import json
import uuid

import pytest
from channels.testing import WebsocketCommunicator
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from annotation.models import Article, Paragraph, SpanAnswer, SpanQuestion
from collector.consumers import AuthorConsumer
from collector.models import Prediction, Question, Round
from courses.models import Course
from evaluation.models import AmbiguityDataset, EvaluationRun

CHOICES = ["was very hungry.", "was not hungry at all.", "gave the pizza away.", "ate a salad."]
GOOD = {"prompt": "The man ate the whole pizza. He", "choices": CHOICES, "correct_index": 0}


STORED = (User, Course, Round, Question, Prediction, Article, Paragraph, SpanQuestion, SpanAnswer, AmbiguityDataset,
          EvaluationRun)


def counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in STORED)


# --- REST API: POST /api/questions/submit/ ------------------------------------------------------
API_SUBMIT_CASES = {
    "empty body": ({}, "round_id"),
    "round id is text": ({**GOOD, "round_id": "one"}, "round_id"),
    "round id negative": ({**GOOD, "round_id": -4}, "round_id"),
    "round id beyond 64 bits": ({**GOOD, "round_id": 2**70}, "round_id"),
    "unknown round": ({**GOOD, "round_id": 987654}, "does not exist"),
    "prompt missing": ({"choices": CHOICES, "correct_index": 0, "ROUND": 1}, "prompt"),
    "prompt empty": ({**GOOD, "prompt": "   ", "ROUND": 1}, "prompt"),
    "prompt too long": ({**GOOD, "prompt": "x" * 5000, "ROUND": 1}, "prompt"),
    "three choices": ({**GOOD, "choices": CHOICES[:3], "ROUND": 1}, "4"),
    "five choices": ({**GOOD, "choices": [*CHOICES, "extra."], "ROUND": 1}, "4"),
    "choices not a list": ({**GOOD, "choices": "a,b,c,d", "ROUND": 1}, "choices"),
    "choices with null": ({**GOOD, "choices": [None, *CHOICES[1:]], "ROUND": 1}, "choices"),
    "duplicate choices": ({**GOOD, "choices": ["same.", "same.", "other.", "more."], "ROUND": 1}, None),
    "blank choice": ({**GOOD, "choices": ["", *CHOICES[1:]], "ROUND": 1}, None),
    "choice too long": ({**GOOD, "choices": ["y" * 2000, *CHOICES[1:]], "ROUND": 1}, None),
    "answer out of range": ({**GOOD, "correct_index": 4, "ROUND": 1}, None),
    "answer negative": ({**GOOD, "correct_index": -1, "ROUND": 1}, None),
    "answer is text": ({**GOOD, "correct_index": "first", "ROUND": 1}, "correct_index"),
    "unknown category": ({**GOOD, "categories": ["astrology"], "ROUND": 1}, None),
    "time spent negative": ({**GOOD, "time_spent_seconds": -5, "ROUND": 1}, "time_spent_seconds"),
    "client token not a uuid": ({**GOOD, "client_token": "abc", "ROUND": 1}, "client_token"),
    "nul byte in prompt": ({**GOOD, "prompt": "The man\x00 ate. He", "ROUND": 1}, None),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", API_SUBMIT_CASES)
def test_api_submit_rejects(case, student, round_, fake_model):
    body, expected_in_message = API_SUBMIT_CASES[case]
    body = dict(body)
    if body.pop("ROUND", None):
        body["round_id"] = round_.pk
    api = APIClient()
    api.force_authenticate(student)
    before = counts()
    response = api.post(reverse("api:question_submit"), body, format="json")
    assert response.status_code in (400, 403, 404), (response.status_code, response.content[:300])  # 404: no such round
    message = json.dumps(response.json())
    assert len(message) > 10  # says what is wrong
    if expected_in_message:
        assert expected_in_message in message
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("raw,content_type", [
    ("{not json", "application/json"),
    ("prompt=x&choices=y", "text/plain"),
    ("[1, 2, 3]", "application/json"),
])
def test_api_submit_rejects_malformed_bodies(raw, content_type, student, round_):
    api = APIClient()
    api.force_authenticate(student)
    before = counts()
    response = api.generic("POST", reverse("api:question_submit"), raw, content_type=content_type)
    assert response.status_code in (400, 415)
    assert "detail" in response.json() or response.json()
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("query", [{"round_id": "x"}, {"round_id": "-1"}, {"page": "9999"}, {"page_size": "abc"},
                                   {"round_id": str(2**80)}])
def test_api_question_list_rejects_bad_queries(query, student):
    api = APIClient()
    api.force_authenticate(student)
    response = api.get(reverse("api:question_list"), query)
    assert response.status_code in (200, 400, 404)  # page_size=abc falls back to the default size
    assert response.status_code != 500


# --- HTML forms ------------------------------------------------------------------------------------
def _write_form(**overrides) -> dict:
    data = {"prompt": GOOD["prompt"], **{f"choice_{i}": c for i, c in enumerate(CHOICES)}, "answer": "0",
            "client_token": str(uuid.uuid4())}
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


WRITE_FORM_CASES = {
    "no prompt": _write_form(prompt=""),
    "no answer marked": _write_form(answer=None),
    "answer 7": _write_form(answer="7"),
    "missing completion": _write_form(choice_2=""),
    "repeated completion": _write_form(choice_1=CHOICES[0]),
    "prompt too long": _write_form(prompt="p" * 3000),
    "client token garbage": _write_form(client_token="not-a-token"),
    "unknown category": {**_write_form(), "categories": ["astrology"]},
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", WRITE_FORM_CASES)
def test_authoring_form_shows_the_error_and_stores_nothing(case, client, student, round_, fake_model):
    client.force_login(student)
    before = counts()
    response = client.post(reverse("collector:round_write", args=[round_.pk]), WRITE_FORM_CASES[case])
    assert response.status_code == 200  # the form again, with its errors
    assert 'class="errorlist' in response.content.decode() or "form-errors" in response.content.decode()
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("data,error", [
    ({"join_code": "NOPE0000", "username": "newbie", "password1": "a-long-pass-987", "password2": "a-long-pass-987"},
     "No course has this join code"),
    ({"join_code": "", "username": "newbie", "password1": "x", "password2": "x"}, "This field is required"),
    ({"join_code": "JOIN", "username": "newbie", "password1": "a-long-pass-987", "password2": "different-987"},
     "The two passwords differ"),
    ({"join_code": "JOIN", "username": "new bie!", "password1": "a-long-pass-987", "password2": "a-long-pass-987"},
     "Enter a valid username"),
    ({"join_code": "JOIN", "username": "prof", "password1": "a-long-pass-987", "password2": "a-long-pass-987"},
     "This username is taken"),
    ({"join_code": "JOIN", "username": "newbie", "password1": "123", "password2": "123"}, "too short"),
])
def test_signup_form_rejects(data, error, course):
    data = {**data, "join_code": course.join_code if data["join_code"] == "JOIN" else data["join_code"]}
    before = counts()
    response = Client().post(reverse("courses:signup"), data)
    assert response.status_code == 200
    assert error in html.unescape(response.content.decode())
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("data", [{"name": ""}, {"name": "n" * 500}])
def test_course_form_rejects(data, client, instructor):
    client.force_login(instructor)
    before = counts()
    response = client.post(reverse("courses:course_list"), data)
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert counts() == before


@pytest.mark.django_db
def test_a_form_without_its_csrf_token_is_refused(student, round_):
    client = Client(enforce_csrf_checks=True)
    client.force_login(student)
    before = counts()
    response = client.post(reverse("collector:round_write", args=[round_.pk]), _write_form())
    assert response.status_code == 403
    assert "CSRF" in response.content.decode()
    assert counts() == before


# --- Websocket messages -------------------------------------------------------------------------
WS_CASES = {
    "not json": ("{draft", "not valid JSON"),
    "json list": ("[1, 2]", "JSON object"),
    "unknown type": (json.dumps({"type": "submit"}), "Unknown message type"),
    "no type": (json.dumps({"prompt": "x"}), "Unknown message type"),
    "three choices": (json.dumps({"type": "draft", "prompt": "A b. C", "choices": ["a", "b", "c"]}), "4"),
    "choices not list": (json.dumps({"type": "draft", "prompt": "A b. C", "choices": "abcd"}), None),
    "seq is text": (json.dumps({"type": "draft", "prompt": "x", "choices": CHOICES, "seq": "1"}), '"seq"'),
    "token not uuid": (json.dumps({"type": "draft", "prompt": "A b.", "choices": CHOICES, "token": "zz"}), '"token"'),
    "answer out of range": (json.dumps({"type": "draft", "prompt": "A b.", "choices": CHOICES, "answer": 9}), None),
    "too large": (json.dumps({"type": "draft", "prompt": "x" * 20000, "choices": CHOICES}), "too large"),
    "nested 5,000 deep": ("[" * 5000, "nested deeper than 64 levels"),
    "seq of 5,000 digits": (json.dumps({"type": "draft", "prompt": "A b.", "choices": CHOICES, "seq": 1})
                            .replace('"seq": 1', '"seq": ' + "9" * 5000), "more than 50 digits"),
    "seq NaN": (json.dumps({"type": "draft", "prompt": "A b.", "choices": CHOICES, "seq": float("nan")}),
                "NaN is not a JSON number"),
    "nul in the prompt": (json.dumps({"type": "draft", "prompt": "The man\x00 ate. He", "choices": CHOICES}),
                          "Null characters are not allowed"),
    "lone surrogate in a choice": (json.dumps({"type": "draft", "prompt": "A b.", "choices": ["SUR", *CHOICES[1:]]})
                                   .replace("SUR", "\\ud800"), "Surrogate characters are not allowed"),
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("case", WS_CASES)
async def test_websocket_answers_bad_messages_with_an_error_and_stays_open(case, student, round_, fake_model):
    text, expected = WS_CASES[case]
    communicator = WebsocketCommunicator(AuthorConsumer.as_asgi(), f"/ws/author/{round_.pk}/")
    communicator.scope["user"] = student
    communicator.scope["url_route"] = {"kwargs": {"round_id": round_.pk}}
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    await communicator.send_to(text_data=text)
    reply = await communicator.receive_json_from(timeout=10)
    assert reply["type"] == "error" and reply["message"]
    if expected:
        assert expected in reply["message"]
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from(timeout=10) == {"type": "pong"}
    await communicator.disconnect()


# --- Import files -----------------------------------------------------------------------------------
GOOD_ROW = "i\tThe man ate the whole pizza. He\twas hungry.\twas not hungry.\tgave it away.\tate a salad.\t0"
IMPORT_CASES = {
    "empty file": ("", "no questions"),
    "wrong column count": ("i\tonly two", "line 1"),
    "answer not a number": (GOOD_ROW[:-1] + "x", "line 1"),
    "answer out of range": (GOOD_ROW[:-1] + "7", "line 1"),
    "good row then bad row (nothing stored)": (GOOD_ROW + "\n" + "i\tbroken", "line 2"),
    "unknown category": (GOOD_ROW.replace("i\t", "z\t", 1), "line 1"),
    "too many rows": ("\n".join([GOOD_ROW] * 30), "at most 20 are imported"),
    "too many bytes": (GOOD_ROW + "\t" + "x" * 6000, "larger than"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", IMPORT_CASES)
def test_import_files_are_all_or_nothing_with_the_line_named(case, round_, tmp_path, settings):
    settings.STUMPER_IMPORT_MAX_ROWS, settings.STUMPER_IMPORT_MAX_BYTES = 20, 5000
    text, expected = IMPORT_CASES[case]
    path = tmp_path / "questions.tsv"
    path.write_text(text, encoding="utf-8")
    before = counts()
    with pytest.raises(CommandError) as raised:
        call_command("import_codah", str(path), "--round", round_.name)
    assert expected in str(raised.value)
    assert counts() == before


@pytest.mark.django_db
def test_an_import_file_that_is_not_utf8_is_refused(round_, tmp_path):
    path = tmp_path / "latin1.tsv"
    path.write_bytes(GOOD_ROW.replace("pizza", "pizzé").encode("latin-1"))
    before = counts()
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_codah", str(path), "--round", round_.name)
    assert counts() == before

