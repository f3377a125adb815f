"""The model-in-the-loop websocket, driven with Channels' WebsocketCommunicator on a tiny QA model."""
import contextlib
from unittest import mock

import pytest
from channels.db import database_sync_to_async

from annotation.routing import websocket_urlpatterns
from annotation.services.authoring import session_start_next
from annotation.services.projects import project_update
from annotation.tests.factories import FA_CONTEXT, ZWNJ, selection
from core.tests.factories import socket_connect
from modelhub.inference import qa_inference_service

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(user, session_id, cookies=None):
    communicator = await socket_connect(websocket_urlpatterns, f"/ws/annotation/sessions/{session_id}/qa/", user,
                                        cookies=cookies or {})
    await _model_loaded(session_id)  # predictions, not "loading", first
    return communicator


async def _model_loaded(session_id: int) -> None:
    from annotation.models import AnnotationSession

    session = await database_sync_to_async(AnnotationSession.objects.select_related(
        "paragraph__article__project__qa_model").filter(pk=session_id).first)()
    version = session.paragraph.article.project.qa_model if session is not None else None
    if version is not None:
        with contextlib.suppress(Exception):
            await qa_inference_service.wait_until_loaded(version)


@database_sync_to_async
def _session(project, user, model=None, kind="authoring"):
    if model is not None:
        project = project_update(project=project, user=project.owner, qa_model=model)
    return session_start_next(user=user, project=project, kind=kind)


async def test_prediction_with_span_f1_and_verdict(fa_project, fa_paragraph, crowdworker, qa_version):
    session = await _session(fa_project, crowdworker, qa_version)
    communicator = await connect(crowdworker, session.pk)
    status = await communicator.receive_json_from(timeout=10)
    assert status["type"] == "status" and status["state"] == "ready" and status["model_version"] == "tiny-qa"
    word = "کتاب" + ZWNJ + "خانه" + ZWNJ + "های"
    await communicator.send_json_to({"type": "draft", "question": "چه چیزی کتاب دارد؟",
                                     "selection": selection(FA_CONTEXT, word), "seq": 3})
    reply = await communicator.receive_json_from(timeout=30)
    assert reply["type"] == "prediction" and reply["seq"] == 3 and reply["model_version"] == "tiny-qa"
    if reply["answer_start"] is not None:
        start = reply["answer_start"]
        assert FA_CONTEXT[start:start + len(reply["text"])] == reply["text"]
        # UTF-16 offsets for the browser: the emoji before some spans counts twice there.
        assert reply["span16"]["start16"] == len(FA_CONTEXT[:start].encode("utf-16-le")) // 2
    assert 0.0 <= reply["f1"] <= 1.0 and reply["fooled"] == (reply["f1"] < fa_project.fool_f1_threshold)
    await communicator.disconnect()


async def test_without_a_marked_answer_the_verdict_is_unknown(project, paragraph, crowdworker, qa_version):
    session = await _session(project, crowdworker, qa_version)
    communicator = await connect(crowdworker, session.pk)
    await communicator.receive_json_from(timeout=10)
    await communicator.send_json_to({"type": "draft", "question": "Where do the rivers meet?"})
    reply = await communicator.receive_json_from(timeout=30)
    assert reply["type"] == "prediction" and reply["f1"] is None and reply["fooled"] is None
    await communicator.disconnect()


async def test_no_model_is_a_clear_note_not_an_error(project, paragraph, crowdworker):
    session = await _session(project, crowdworker)
    communicator = await connect(crowdworker, session.pk)
    status = await communicator.receive_json_from(timeout=10)
    assert status == {"type": "status", "state": "no_model",
                      "message": "No model is set up for this project: write your questions as usual."}
    await communicator.send_json_to({"type": "draft", "question": "Anything?"})
    assert (await communicator.receive_json_from(timeout=10))["state"] == "no_model"
    await communicator.disconnect()


async def test_a_failing_model_reports_unavailable(project, paragraph, crowdworker, qa_version):
    session = await _session(project, crowdworker, qa_version)
    communicator = await connect(crowdworker, session.pk)
    await communicator.receive_json_from(timeout=10)
    with mock.patch("modelhub.inference.predict_qa", side_effect=RuntimeError("weights gone")):
        await communicator.send_json_to({"type": "draft", "question": "Where?", "seq": 1})
        reply = await communicator.receive_json_from(timeout=30)
    assert reply["type"] == "status" and reply["state"] == "unavailable" and "questions are saved" in reply["message"]
    await communicator.disconnect()


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("not json", "not valid JSON"),
        ('["a list"]', '"type" field'),
        ('{"type": "shout"}', "Unknown message type"),
        ('{"type": "draft", "question": ""}', "The question is empty."),
        ('{"type": "draft", "question": "Q?", "selection": {"start16": 0, "end16": 100000}}', "past the end"),
        ('{"type": "draft", "question": "Q?", "seq": "x"}', '"seq" must be an integer'),
        ('{"type": "draft", "question": "Q?", "is_impossible": "yes"}', '"is_impossible"'),
        ('{"type": "draft", "question": "Q\\u0000?"}', "Null characters are not allowed"),
        ('{"type": "draft", "question": "Q?", "seq": ' + "9" * 5000 + "}", "more than 50 digits"),
        ("[" * 5000, "nested deeper than 64 levels"),
    ],
)
async def test_bad_messages_get_an_error_and_the_socket_stays_open(project, paragraph, crowdworker, qa_version,
                                                                   message, expected):
    session = await _session(project, crowdworker, qa_version)
    communicator = await connect(crowdworker, session.pk)
    await communicator.receive_json_from(timeout=10)
    await communicator.send_to(text_data=message)
    reply = await communicator.receive_json_from(timeout=10)
    assert reply["type"] == "error" and expected in reply["message"]
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from(timeout=10) == {"type": "pong"}
    await communicator.disconnect()


async def test_someone_elses_session_is_refused(project, paragraph, crowdworker, worker2):
    session = await _session(project, crowdworker)
    communicator = await connect(worker2, session.pk)
    reply = await communicator.receive_json_from(timeout=10)
    assert reply == {"type": "error", "message": "This annotation task is not yours."}
    assert (await communicator.receive_output(timeout=10))["code"] == 4403


async def test_too_many_drafts_are_rate_limited(project, paragraph, crowdworker, qa_version, settings):
    from django.core.cache import cache

    settings.STUMPER_DRAFT_RATE, settings.STUMPER_DRAFT_BURST = 0.001, 1
    cache.clear()
    session = await _session(project, crowdworker, qa_version)
    communicator = await connect(crowdworker, session.pk)
    await communicator.receive_json_from(timeout=10)
    await communicator.send_json_to({"type": "draft", "question": "Where?", "seq": 1})
    await communicator.send_json_to({"type": "draft", "question": "Where now?", "seq": 2})
    replies = [await communicator.receive_json_from(timeout=30) for _ in range(2)]
    assert {"prediction", "status"} == {r["type"] for r in replies}
    limited = next(r for r in replies if r["type"] == "status")
    assert limited["state"] == "rate_limited" and limited["seq"] == 2
    cache.clear()
    await communicator.disconnect()


async def test_in_worker_mode_the_inference_task_answers_and_its_failure_is_unavailable(
        project, paragraph, crowdworker, qa_version, settings):
    from modelhub.tasks import qa_predict_drafts_task as predict_drafts_task

    settings.STUMPER_INFERENCE_MODE = "worker"  # eager Celery in tests: the task runs here
    session = await _session(project, crowdworker, qa_version)
    communicator = await connect(crowdworker, session.pk)
    assert (await communicator.receive_json_from(timeout=10))["state"] == "ready"
    # The eager task runs in the batcher's thread, where a database connection would outlive the
    # test (a worker closes its own); the version's lookup is tested in collector/tests/test_inference.py.
    with mock.patch.object(predict_drafts_task, "apply_async", wraps=predict_drafts_task.apply_async) as send, \
            mock.patch("modelhub.inference.model_version_get", return_value=qa_version):
        await communicator.send_json_to({"type": "draft", "question": "Where do the rivers meet?", "seq": 1})
        reply = await communicator.receive_json_from(timeout=30)
    assert reply["type"] == "prediction" and reply["seq"] == 1 and send.call_count == 1
    with mock.patch.object(predict_drafts_task, "apply_async", side_effect=ConnectionError("broker down")):
        await communicator.send_json_to({"type": "draft", "question": "Where?", "seq": 2})
        reply = await communicator.receive_json_from(timeout=30)
    assert reply["type"] == "status" and reply["state"] == "unavailable" and reply["seq"] == 2
    await communicator.disconnect()


# --------------------------------------------------------------------------- the worker's language
async def test_a_persian_project_hears_persian_with_persian_digits(fa_project, fa_paragraph, crowdworker, qa_version):
    session = await _session(fa_project, crowdworker, qa_version)
    communicator = await connect(crowdworker, session.pk)
    assert (await communicator.receive_json_from(timeout=10))["message"] == \
        "مدل همزمان با نوشتن، به پرسش شما پاسخ می" + ZWNJ + "دهد."
    for message, expected in [
        ('{"type": "draft", "question": " "}', "پرسش خالی است."),
        ('{"type": "draft", "question": "Q?", "selection": {"start16": 0, "end16": 100000}}',
         "جایگاه انتخاب ۱۰۰۰۰۰ از پایان پاراگراف"),
        ('{"type": "draft", "question": "' + "x" * 400 + '"}', "پرسش بیش از اندازه بلند است (حداکثر ۳۰۰ نویسه)."),
        ('{"type": "shout"}', "نوع پیام 'shout' ناشناخته است"),
        ('{"type": "draft", "question": "Q?", "seq": "x"}', '"seq" باید عدد صحیح باشد.'),
        ("not json", "پیام، JSON معتبر نیست."),
    ]:
        await communicator.send_to(text_data=message)
        reply = await communicator.receive_json_from(timeout=10)
        assert reply["type"] == "error" and reply["message"].startswith(expected), reply
    with mock.patch("modelhub.inference.predict_qa", side_effect=RuntimeError("weights gone")):
        await communicator.send_json_to({"type": "draft", "question": "پایتخت کجاست؟", "seq": 1})
        reply = await communicator.receive_json_from(timeout=30)
    assert reply["state"] == "unavailable" and reply["message"].startswith("مدل اکنون در دسترس نیست.")
    await communicator.disconnect()


async def test_the_workers_choice_of_english_wins_over_the_projects_persian(fa_project, fa_paragraph, crowdworker):
    session = await _session(fa_project, crowdworker)
    communicator = await connect(crowdworker, session.pk, cookies={"django_language": "en"})
    assert (await communicator.receive_json_from(timeout=10))["message"] == \
        "No model is set up for this project: write your questions as usual."
    await communicator.send_to(text_data="not json")
    assert (await communicator.receive_json_from(timeout=10))["message"] == "Message is not valid JSON."
    await communicator.disconnect()


async def test_an_english_project_in_persian_when_the_worker_chose_it(project, paragraph, crowdworker):
    session = await _session(project, crowdworker)
    communicator = await connect(crowdworker, session.pk, cookies={"django_language": "fa"})
    assert (await communicator.receive_json_from(timeout=10))["message"] == \
        "برای این پروژه مدلی تنظیم نشده است: پرسش" + ZWNJ + "هایتان را مثل همیشه بنویسید."
    await communicator.disconnect()


async def test_a_refusal_is_worded_in_the_projects_language(fa_project, fa_paragraph, crowdworker, worker2):
    session = await _session(fa_project, crowdworker)
    communicator = await connect(worker2, session.pk)
    reply = await communicator.receive_json_from(timeout=10)
    assert reply == {"type": "error", "message": "این کار برچسب" + ZWNJ + "گذاری از آنِ شما نیست."}
    assert (await communicator.receive_output(timeout=10))["code"] == 4403
