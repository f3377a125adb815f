"""Fault: Redis (channel layer and Celery broker) goes down while a student writes and submits.

A Redis server of our own is stopped mid-test; the live model's files are away at the same
time, so the submission cannot be scored at once and the enqueue of its prediction fails too.
Nothing may be lost: the question is stored with its prediction pending, the student is told,
live authoring over the websocket keeps answering (with "unavailable"), and once Redis and the
model are back a real worker's start-up sweep fills the prediction in.
"""
import html
import shutil
import uuid

import pytest
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from collector.consumers import AuthorConsumer
from collector.models import Prediction, Question
from collector.services.rounds import round_create
from modelhub.services import model_version_register
from tests.faults import ThrowawayRedis, celery_broker
from tests.worker import celery_worker, wait_for

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed"),
]

FORM = {
    "prompt": "The lights went out during the storm. We", "choice_0": "lit some candles.",
    "choice_1": "painted the moon.", "choice_2": "ate the thunder.", "choice_3": "sold the rain.",
    "answer": "0", "categories": ["other"], "time_spent_seconds": "30",
}


@pytest.fixture
def redis():
    server = ThrowawayRedis()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def away_model_round(course, student, tiny_model_dir, tmp_path):
    """A round whose live model lives in a folder (shared storage) that we can take away."""
    folder = tmp_path / "shared-models" / "flaky"
    shutil.copytree(tiny_model_dir, folder)
    version = model_version_register(name="flaky-storage", kind="multiple_choice", path=str(folder))
    return round_create(course=course, name="outage-round", live_model=version), folder


@pytest.fixture
def redis_channel_layer(redis, settings):
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [redis.url]}}
    }
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


async def _draft_while_down(round_id: int, user) -> list[dict]:
    communicator = WebsocketCommunicator(AuthorConsumer.as_asgi(), f"/ws/author/{round_id}/")
    communicator.scope["user"] = user
    communicator.scope["url_route"] = {"kwargs": {"round_id": round_id}}
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    await communicator.send_json_to({"type": "ping"})
    replies = [await communicator.receive_json_from(timeout=10)]
    await communicator.send_json_to({"type": "draft", "prompt": FORM["prompt"], "answer": 0, "seq": 1,
                                     "choices": [FORM[f"choice_{i}"] for i in range(4)]})
    reply = await communicator.receive_json_from(timeout=30)
    if reply.get("state") == "loading":  # the load started on connect had not failed yet
        reply = await communicator.receive_json_from(timeout=30)
    replies.append(reply)
    await communicator.disconnect()
    return replies


async def test_redis_and_model_down_nothing_is_lost_and_the_worker_fills_it_in_later(
        redis, redis_channel_layer, away_model_round, student, client, tmp_path):
    round_, folder = away_model_round
    away = folder.with_name("flaky-away")
    folder.rename(away)  # the shared model storage is gone...
    redis.stop()  # ...and so is Redis

    # Live authoring keeps its socket and tells the student the model is unavailable.
    pong, status = await _draft_while_down(round_.pk, student)
    assert pong == {"type": "pong"}
    assert status["type"] == "status" and status["state"] == "unavailable" and status["seq"] == 1

    # The submission over HTTP is stored; the student is told the answer is pending.
    from asgiref.sync import sync_to_async

    @sync_to_async
    def submit():
        with celery_broker(redis.url):
            client.force_login(student)
            token = str(uuid.uuid4())
            return client.post(reverse("collector:round_write", args=[round_.pk]), {**FORM, "client_token": token},
                               follow=True)

    response = await submit()
    assert response.status_code == 200
    assert "the model's answer is pending" in html.unescape(response.content.decode())
    question = await Question.objects.aget(round=round_)
    prediction = await Prediction.objects.aget(question=question)
    assert prediction.status == Prediction.Status.PENDING and prediction.attempts == 1
    assert prediction.last_error  # why it is pending, for the instructor

    # Both come back; a real worker's start-up sweep finds the pending prediction and fills it in.
    away.rename(folder)
    redis.start()
    log = tmp_path / "worker.log"

    @sync_to_async
    def worker_fills_it_in():
        with celery_worker(log, environment={"CELERY_BROKER_URL": redis.url, "REDIS_URL": redis.url}):
            wait_for(lambda: Prediction.objects.get(pk=prediction.pk).status == Prediction.Status.DONE,
                     timeout=120, log_path=log)

    await worker_fills_it_in()
    await prediction.arefresh_from_db()
    assert len(prediction.probs) == 4 and prediction.fooled == (prediction.predicted_index != 0)
    assert await Question.objects.filter(round=round_).acount() == 1
