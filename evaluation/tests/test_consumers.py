"""The progress websockets of a report and of a model evaluation: who may connect, a snapshot on
connect, a message per change the worker pushes (``core.jobs``; the sockets never poll)."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from core.jobs import job_push
from core.tests.factories import socket_connect
from evaluation.models import EvaluationRun
from evaluation.routing import websocket_urlpatterns
from evaluation.services import leaderboards as leaderboard_services
from evaluation.services import reports as report_services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_worker(monkeypatch):
    # These tests move the run through its states by hand; no worker may compute it meanwhile.
    monkeypatch.setattr(report_services, "evaluation_schedule", lambda *, run_id: None)


async def connect(user, run_id):
    return await socket_connect(websocket_urlpatterns, f"/ws/evaluation/runs/{run_id}/", user)


@database_sync_to_async
def start(round_, user):
    return report_services.evaluation_start_round(round_=round_, user=user)


@database_sync_to_async
def update(run, **fields):
    """Write the run's fields as a worker would, then push the change (``core.jobs.job_push``)."""
    EvaluationRun.objects.filter(pk=run.pk).update(**fields)
    job_push(run, fields.get("status", run.status))


async def test_instructor_follows_the_run_until_it_is_done(instructor, round_):
    run = await start(round_, instructor)
    communicator = await connect(instructor, run.pk)
    message = await communicator.receive_json_from(timeout=5)
    assert message["type"] == "progress" and message["run"]["status"] == "queued"
    assert message["run"]["display"]["progress"] == "Waiting for a worker to start it."
    assert await communicator.receive_nothing(timeout=0.2)  # nothing changed, nothing sent

    await update(run, status="running", progress={"owner": "host:1", "stage": "Reweighting, Adam step 10 of 20", "percent": 57.5})
    payload = (await communicator.receive_json_from(timeout=5))["run"]
    assert payload["display"] == {"status": "Running", "percent": 57.5, "progress": "Reweighting, Adam step 10 of 20 (58%)",
                                  "state": "running", "stalled": ""}
    assert "owner" not in payload["progress"]

    await update(run, status="done", progress={"stage": "Done", "percent": 100.0})
    payload = (await communicator.receive_json_from(timeout=5))["run"]
    assert payload["status"] == "done" and payload["urls"]["report"] == f"/evaluation/runs/{run.pk}/"
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from(timeout=5) == {"type": "pong"}
    await communicator.disconnect()


@pytest.mark.parametrize("who", ["student", "crowdworker", "other_instructor"])
async def test_others_are_refused(instructor, round_, who, request):
    user = await database_sync_to_async(request.getfixturevalue)(who)
    run = await start(round_, instructor)
    communicator = await connect(user, run.pk)
    message = await communicator.receive_json_from(timeout=5)
    assert message["type"] == "error" and "instructors" in message["message"]
    assert (await communicator.receive_output(timeout=5))["code"] == 4403


async def test_anonymous_and_unknown_run_are_refused(instructor, round_):
    communicator = await connect(AnonymousUser(), 424242)
    assert (await communicator.receive_json_from(timeout=5))["message"] == "This evaluation report does not exist."
    assert (await communicator.receive_output(timeout=5))["code"] == 4403


async def test_bad_messages_get_an_error_and_the_socket_stays_open(instructor, round_):
    run = await start(round_, instructor)
    communicator = await connect(instructor, run.pk)
    await communicator.receive_json_from(timeout=5)
    await communicator.send_to(text_data="not json")
    assert (await communicator.receive_json_from(timeout=5)) == {"type": "error", "message": "Message is not valid JSON."}
    await communicator.send_json_to({"type": "start"})
    assert "only reports progress" in (await communicator.receive_json_from(timeout=5))["message"]
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from(timeout=5) == {"type": "pong"}
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_progress_socket_follows_an_evaluation(instructor, board_round, tiny_model_version, monkeypatch,
                                                    student):
    monkeypatch.setattr(leaderboard_services, "model_evaluation_schedule", lambda **kw: None)
    evaluation = await database_sync_to_async(leaderboard_services.model_evaluation_start)(
        model_version=tiny_model_version, round_=board_round)
    path = f"/ws/evaluation/model-evaluations/{evaluation.pk}/"

    outsider = await socket_connect(websocket_urlpatterns, path, student)
    assert (await outsider.receive_json_from(timeout=5))["type"] == "error"
    assert (await outsider.receive_output(timeout=5))["code"] == 4403

    communicator = await socket_connect(websocket_urlpatterns, path, instructor)
    first = await communicator.receive_json_from(timeout=5)
    assert first["type"] == "progress" and first["run"]["status"] == "queued"
    await database_sync_to_async(leaderboard_services.model_evaluation_run)(evaluation_id=evaluation.pk)
    while True:
        message = await communicator.receive_json_from(timeout=10)
        if message["run"]["status"] == "done":
            break
    assert message["run"]["display"]["percent"] == 100.0 and message["run"]["headline"]["n"] == 5
    await communicator.disconnect()
