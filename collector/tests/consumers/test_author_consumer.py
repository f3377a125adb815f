"""The live-authoring websocket, driven with Channels' WebsocketCommunicator on a tiny model."""
import json
from datetime import timedelta
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from collector.models import Question
from collector.tests.factories import DRAFT, connect_author_socket, draft_prediction
from modelhub.inference import inference_service

pytestmark = pytest.mark.django_db(transaction=True)
connect = connect_author_socket


async def test_draft_gets_a_prediction_from_the_live_model(student, open_round):
    communicator = await connect(student, open_round.pk)
    reply = await draft_prediction(communicator, {**DRAFT, "seq": 7})
    assert len(reply["probs"]) == 4
    assert sum(reply["probs"]) == pytest.approx(1.0, abs=1e-5)
    assert reply["predicted"] == max(range(4), key=lambda i: reply["probs"][i])
    assert reply["model_version"] == "tiny-test-model"
    assert reply["fooled"] == (reply["predicted"] != 1)
    assert reply["seq"] == 7
    await communicator.disconnect()


async def test_draft_without_answer_has_unknown_fooled_state(student, open_round):
    communicator = await connect(student, open_round.pk)
    assert (await draft_prediction(communicator, {**DRAFT, "answer": None}))["fooled"] is None
    await communicator.disconnect()


@pytest.mark.parametrize(
    "message, expected",
    [
        ("not json at all", "not valid JSON"),
        (json.dumps([1, 2, 3]), "JSON object"),
        (json.dumps({"type": "shout"}), "Unknown message type"),
        (json.dumps({**DRAFT, "choices": DRAFT["choices"][:3]}), "exactly 4"),
        (json.dumps({**DRAFT, "choices": DRAFT["choices"] + ["more."]}), "exactly 4"),
        (json.dumps({**DRAFT, "choices": "got wet."}), "exactly 4"),
        (json.dumps({**DRAFT, "prompt": "   "}), "empty"),
        (json.dumps({**DRAFT, "prompt": 12}), "must be text"),
        (json.dumps({**DRAFT, "answer": 9}), "between 0 and 3"),
        (json.dumps({**DRAFT, "answer": "first"}), "number"),
        (json.dumps({**DRAFT, "choices": ["a.", "a.", "b.", "c."]}), "repeats"),
        (json.dumps({**DRAFT, "prompt": "x" * 600}), "too long"),
        (json.dumps({**DRAFT, "seq": "one"}), "seq"),
    ],
)
async def test_bad_messages_get_an_error_and_the_socket_stays_usable(student, open_round, message, expected):
    communicator = await connect(student, open_round.pk)
    await communicator.send_to(text_data=message)
    reply = await communicator.receive_json_from(timeout=10)
    assert reply["type"] == "error"
    assert expected in reply["message"]
    await draft_prediction(communicator, DRAFT)
    await communicator.disconnect()


async def test_binary_frames_are_refused_politely(student, open_round):
    communicator = await connect(student, open_round.pk)
    await communicator.send_to(bytes_data=b"\x00\x01")
    reply = await communicator.receive_json_from(timeout=10)
    assert reply == {"type": "error", "message": "Send JSON text messages, not binary data."}
    await communicator.disconnect()


async def test_only_the_newest_of_a_burst_of_drafts_is_answered_last(student, open_round):
    communicator = await connect(student, open_round.pk)
    for seq in range(1, 11):
        await communicator.send_json_to({**DRAFT, "prompt": f"Draft number {seq}. He", "seq": seq})
    replies = []
    while True:
        reply = await communicator.receive_json_from(timeout=30)
        if reply.get("state") == "loading":
            continue  # the model was evicted from the process's cache by an earlier test: loaded again
        replies.append(reply)
        if reply.get("seq") == 10:
            break
    assert all(reply["type"] == "prediction" for reply in replies)
    assert len(replies) < 10  # stale drafts were dropped, not computed one by one
    assert await communicator.receive_nothing(timeout=0.5)
    await communicator.disconnect()


async def test_anonymous_users_are_told_to_sign_in(open_round):
    communicator = await connect(AnonymousUser(), open_round.pk)
    reply = await communicator.receive_json_from(timeout=10)
    assert reply["type"] == "error" and "sign in" in reply["message"]
    assert (await communicator.receive_output(timeout=5))["type"] == "websocket.close"


async def test_students_of_another_course_are_refused(open_round, outsider):
    communicator = await connect(outsider, open_round.pk)
    reply = await communicator.receive_json_from(timeout=10)
    assert reply["type"] == "error" and "not enrolled" in reply["message"]


async def test_closed_round_and_missing_round_are_refused(student, open_round):
    open_round.closes_at = timezone.now() - timedelta(hours=1)
    await database_sync_to_async(open_round.save)()
    communicator = await connect(student, open_round.pk)
    assert "closed" in (await communicator.receive_json_from(timeout=10))["message"]
    communicator = await connect(student, 999999)
    assert "does not exist" in (await communicator.receive_json_from(timeout=10))["message"]


async def test_model_failure_is_reported_and_authoring_goes_on(student, open_round):
    communicator = await connect(student, open_round.pk)
    with mock.patch("modelhub.inference.live_model", side_effect=OSError("no weights")), \
            mock.patch("modelhub.inference.live_model_ready", return_value=False):
        await communicator.send_json_to(DRAFT)
        reply = await communicator.receive_json_from(timeout=10)
        if reply["state"] == "loading":  # the load started on connect had not failed yet; now it does
            reply = await communicator.receive_json_from(timeout=10)
    assert reply["type"] == "status" and reply["state"] == "unavailable"
    assert "submit" in reply["message"]
    await draft_prediction(communicator, DRAFT)
    assert await database_sync_to_async(Question.objects.count)() == 0  # drafts are never stored
    await communicator.disconnect()


async def test_overload_tells_the_author_the_model_is_busy(student, open_round):
    from mlcore.models.serving import BatcherOverloaded

    communicator = await connect(student, open_round.pk)
    with mock.patch.object(inference_service, "predict_draft", side_effect=BatcherOverloaded("full")):
        await communicator.send_json_to(DRAFT)
        reply = await communicator.receive_json_from(timeout=10)
    assert reply["type"] == "status" and reply["state"] == "busy"
    await communicator.disconnect()


async def test_in_worker_mode_a_draft_is_answered_by_the_inference_task(student, open_round, settings):
    from modelhub.tasks import predict_drafts_task

    settings.STUMPER_INFERENCE_MODE = "worker"  # eager Celery in tests: the task runs here
    communicator = await connect(student, open_round.pk)
    # The eager task runs in the batcher's thread, where a database connection would outlive the
    # test (a worker closes its own); the version's lookup is tested in modelhub/tests/test_inference.py.
    with mock.patch.object(predict_drafts_task, "apply_async", wraps=predict_drafts_task.apply_async) as send, \
            mock.patch("modelhub.inference.model_version_get", return_value=open_round.live_model):
        reply = await draft_prediction(communicator, {**DRAFT, "seq": 3})
    assert reply["seq"] == 3 and reply["model_version"] == "tiny-test-model"
    assert sum(reply["probs"]) == pytest.approx(1.0, abs=1e-5)
    assert send.call_count == 1
    await communicator.disconnect()


async def test_in_worker_mode_no_answer_in_time_is_unavailable_and_authoring_goes_on(student, open_round, settings):
    from celery.exceptions import TimeoutError as CeleryTimeoutError

    from modelhub.tasks import predict_drafts_task

    settings.STUMPER_INFERENCE_MODE = "worker"
    no_worker = mock.MagicMock()
    no_worker.get.side_effect = CeleryTimeoutError("The operation timed out.")
    communicator = await connect(student, open_round.pk)
    with mock.patch.object(predict_drafts_task, "apply_async", return_value=no_worker):
        await communicator.send_json_to({**DRAFT, "seq": 1})
        reply = await communicator.receive_json_from(timeout=10)
    assert reply["type"] == "status" and reply["state"] == "unavailable" and reply["seq"] == 1
    with mock.patch("modelhub.inference.model_version_get", return_value=open_round.live_model):
        await draft_prediction(communicator, {**DRAFT, "seq": 2})  # the worker is back
    await communicator.disconnect()


async def test_a_model_still_loading_is_announced_and_the_draft_answered_once_loaded(student, open_round):
    import threading

    import modelhub.inference

    release = threading.Event()
    real_load = modelhub.inference.live_model

    def slow_load(spec, **key):
        assert release.wait(timeout=20)
        return real_load(spec, **key)

    with mock.patch("modelhub.inference.live_model", side_effect=slow_load), \
            mock.patch("modelhub.inference.live_model_ready", return_value=False):
        communicator = await connect(student, open_round.pk, loaded=False)  # a fresh process: nothing loaded
        await communicator.send_json_to({**DRAFT, "seq": 1})
        reply = await communicator.receive_json_from(timeout=10)
        assert reply["type"] == "status" and reply["state"] == "loading" and reply["seq"] == 1
        assert "loading" in reply["message"]
        assert await communicator.receive_nothing(timeout=0.3)  # not "unavailable": it waits for the load
        release.set()
        reply = await communicator.receive_json_from(timeout=30)
    assert reply["type"] == "prediction" and reply["seq"] == 1
    await communicator.disconnect()


async def test_an_expected_timeout_is_logged_as_one_line(student, open_round, caplog):
    communicator = await connect(student, open_round.pk)
    with mock.patch.object(inference_service, "predict_draft", side_effect=TimeoutError()), \
            caplog.at_level("WARNING", logger="core.sockets"):
        await communicator.send_json_to(DRAFT)
        reply = await communicator.receive_json_from(timeout=10)
    assert reply["type"] == "status" and reply["state"] == "unavailable"
    records = [r for r in caplog.records if r.name == "core.sockets"]
    assert len(records) == 1 and records[0].levelname == "WARNING" and records[0].exc_info is None
    assert "no answer within" in records[0].getMessage()
    await communicator.disconnect()


@pytest.mark.parametrize("scope, expected", [
    ({"cookies": {"django_language": "fa"}}, "این دور بسته شده است"),
    ({"headers": [(b"accept-language", b"fa-IR,fa;q=0.9,en;q=0.5")]}, "این دور بسته شده است"),
    ({"cookies": {"django_language": "en"}, "headers": [(b"accept-language", b"fa")]}, "This round is closed"),
])
async def test_the_socket_speaks_the_author_pages_language(student, open_round, scope, expected):
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from collector.routing import websocket_urlpatterns

    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/author/{open_round.pk}/",
                                         headers=scope.get("headers", []))
    communicator.scope.update(user=student, cookies=scope.get("cookies", {}))
    open_round.closes_at = timezone.now() - timedelta(hours=1)
    await database_sync_to_async(open_round.save)()
    assert (await communicator.connect())[0]
    reply = await communicator.receive_json_from(timeout=10)
    assert reply["type"] == "error" and expected in reply["message"]
    await communicator.disconnect()
