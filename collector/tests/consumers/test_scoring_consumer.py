"""The scoring-progress websocket: managers only, a snapshot on connect, a message per pushed change
(``core.jobs`` pushes each change of a run or training job to the round's group; nothing is polled)."""
import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from collector.models import ScoringRun, TrainingJob
from collector.routing import websocket_urlpatterns
from collector.tests.factories import finished_scoring_run
from core.jobs import job_fail, job_push

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(user, round_id):
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/rounds/{round_id}/scoring/")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@database_sync_to_async
def running_run(round_) -> ScoringRun:
    return ScoringRun.objects.create(
        round=round_, status=ScoringRun.Status.RUNNING, folds=5, base_checkpoint="tiny", question_ids=[1, 2],
        progress={"owner": "host:1", "stage": "training", "trial": 0, "fold": 1, "step": 3, "total_steps": 10,
                  "eta_seconds": 95, "loss": 1.25, "done_folds": 1, "total_folds": 5},
    )


async def test_manager_gets_the_runs_on_connect_and_each_change(instructor, round_):
    run = await running_run(round_)
    communicator = await connect(instructor, round_.pk)
    message = await communicator.receive_json_from(timeout=5)
    assert message["type"] == "scoring"
    [payload] = message["runs"]
    assert {key: payload[key] for key in ("id", "kind", "status", "summary", "error")} == {
        "id": run.pk, "kind": "cross_validation", "status": "running", "summary": {}, "error": "",
    }
    assert payload["progress"]["fold"] == 1 and "owner" not in payload["progress"]
    assert payload["display"]["percent"] == pytest.approx(26.0)  # (1 fold + 3/10 steps) of 5
    assert payload["display"]["progress"] == "Fold 2 of 5 · step 3/10 · loss 1.250 · about 1:35 left"
    assert await communicator.receive_json_from(timeout=5) == {"type": "training", "jobs": []}
    assert await communicator.receive_nothing(timeout=0.3)  # nothing changed, nothing sent

    await database_sync_to_async(ScoringRun.objects.filter(pk=run.pk).update)(error="written without a push")
    assert await communicator.receive_nothing(timeout=0.3)  # written without a push: the socket does not poll
    await database_sync_to_async(job_fail)(run, "RuntimeError: out of memory")
    [payload] = (await communicator.receive_json_from(timeout=5))["runs"]
    assert payload["status"] == "failed" and payload["error"] == "RuntimeError: out of memory"
    assert payload["display"]["progress"] == "Stopped after 1 of 5 folds."
    await communicator.disconnect()


@database_sync_to_async
def two_questions(round_, author) -> list[int]:
    from collector.models import Question

    return [Question.objects.create(round=round_, author=author, prompt=f"Prompt {i}. He", choices=["a", "b", "c", "d"],
                                    correct_index=0).pk for i in range(2)]


async def test_finished_runs_of_both_kinds_with_summaries(instructor, student, round_):
    first, second = await two_questions(round_, student)
    await database_sync_to_async(finished_scoring_run)(round_, {first: [True], second: [False]}, kind="answer_only")
    communicator = await connect(instructor, round_.pk)
    [payload] = (await communicator.receive_json_from(timeout=5))["runs"]
    assert (await communicator.receive_json_from(timeout=5))["type"] == "training"
    assert payload["kind"] == "answer_only" and payload["summary"]["answer_only_accuracy"] == 0.5
    assert payload["display"]["result"].startswith("Answer-only accuracy 50.0% vs 25% chance")
    run = await database_sync_to_async(finished_scoring_run)(round_, {first: [True], second: [True]})
    await database_sync_to_async(job_push)(run, run.status)  # to the round's group: a run the page did not know
    runs = (await communicator.receive_json_from(timeout=5))["runs"]
    assert [run["kind"] for run in runs] == ["cross_validation", "answer_only"]
    assert runs[0]["display"]["folds"] == [
        {"label": "Fold 1 (1)", "accuracy": 1.0, "percent": 100.0, "questions": 1},
        {"label": "Fold 2 (1)", "accuracy": 1.0, "percent": 100.0, "questions": 1},
    ]
    assert runs[0]["display"]["warning"].startswith("Few questions per fold: the smallest holds 1 (fewer than 20)")
    await communicator.disconnect()


async def test_no_runs_yet_is_an_empty_list(instructor, round_):
    communicator = await connect(instructor, round_.pk)
    assert await communicator.receive_json_from(timeout=5) == {"type": "scoring", "runs": []}
    assert await communicator.receive_json_from(timeout=5) == {"type": "training", "jobs": []}
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from(timeout=5) == {"type": "pong"}
    await communicator.send_to(text_data="start scoring please")
    assert await communicator.receive_json_from(timeout=5) == {"type": "error", "message": "Message is not valid JSON."}
    await communicator.send_json_to({"type": "score"})
    reply = await communicator.receive_json_from(timeout=5)
    assert reply["type"] == "error" and "only reports progress" in reply["message"]
    await communicator.disconnect()


async def test_training_jobs_are_reported_with_progress(instructor, round_):
    job = await database_sync_to_async(TrainingJob.objects.create)(
        round=round_, name="next-model", status=TrainingJob.Status.RUNNING,
        progress={"stage": "training", "epoch": 2, "step": 30, "total_steps": 120, "loss": 0.9, "eta_seconds": 75},
    )
    communicator = await connect(instructor, round_.pk)
    assert (await communicator.receive_json_from(timeout=5))["type"] == "scoring"
    [payload] = (await communicator.receive_json_from(timeout=5))["jobs"]
    assert (payload["id"], payload["name"], payload["status"]) == (job.pk, "next-model", "running")
    assert payload["display"]["percent"] == 25.0
    assert payload["display"]["progress"] == "Epoch 2 · step 30/120 · loss 0.900 · about 1:15 left"
    await database_sync_to_async(job_fail)(job, "ModelLoadError: no such model")
    [payload] = (await communicator.receive_json_from(timeout=5))["jobs"]
    assert payload["status"] == "failed" and payload["error"] == "ModelLoadError: no such model"
    await communicator.disconnect()


async def test_only_the_courses_instructors_may_listen(round_, student, other_instructor):
    for user in (student, other_instructor, AnonymousUser()):
        communicator = await connect(user, round_.pk)
        reply = await communicator.receive_json_from(timeout=5)
        assert reply == {"type": "error", "message": "Only the course's instructors can open this page."}
        closed = await communicator.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4403}


async def test_missing_round_is_refused(instructor):
    communicator = await connect(instructor, 999999)
    assert "does not exist" in (await communicator.receive_json_from(timeout=5))["message"]
    assert (await communicator.receive_output(timeout=5))["code"] == 4403


async def test_a_running_job_whose_worker_goes_silent_is_reported_stalled_without_a_push(instructor, round_, settings):
    settings.STUMPER_JOB_STALL_SECONDS = 1
    run = await running_run(round_)
    await database_sync_to_async(ScoringRun.objects.filter(pk=run.pk).update)(heartbeat_at=timezone.now())
    communicator = await connect(instructor, round_.pk)
    [payload] = (await communicator.receive_json_from(timeout=5))["runs"]
    assert payload["display"]["state"] == "running" and payload["display"]["stalled"] == ""
    await communicator.receive_json_from(timeout=5)  # the training jobs
    # No worker pushes anything: after the stall period the socket reads the run once more.
    [payload] = (await communicator.receive_json_from(timeout=5))["runs"]
    assert payload["status"] == "running" and payload["display"]["state"] == "stalled"
    assert payload["display"]["status"] == "Stalled"
    assert payload["display"]["progress"] == "stalled: no worker has reported for 1 minute"
    await communicator.disconnect()
