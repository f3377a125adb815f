"""The project page's training socket: the owner only, the job on connect, then each change the
worker pushes (``core.jobs``), in the page's language; a write without a push sends nothing."""
import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from annotation.models import QATrainingJob
from annotation.routing import websocket_urlpatterns
from core.jobs import job_claim, job_fail, job_progress_save
from core.tests.factories import socket_connect

pytestmark = pytest.mark.django_db(transaction=True)


def path(job) -> str:
    return f"/ws/annotation/projects/{job.project_id}/training/{job.pk}/"


@database_sync_to_async
def queued_job(project) -> QATrainingJob:
    return QATrainingJob.objects.create(project=project, name="nile-qa", progress={"stage": "queued"})


@database_sync_to_async
def claim(job) -> QATrainingJob:
    from datetime import timedelta

    return job_claim(QATrainingJob, job.pk, resumable=False, stale_after=timedelta(minutes=5),
                     progress=lambda stored: {"stage": "loading"})


async def test_the_owner_follows_the_job_as_the_worker_pushes_it(owner, project):
    job = await queued_job(project)
    communicator = await socket_connect(websocket_urlpatterns, path(job), owner)
    first = await communicator.receive_json_from(timeout=5)
    assert first["type"] == "progress" and first["run"]["id"] == job.pk and first["run"]["job"] == "annotation.qatrainingjob"
    assert first["run"]["display"]["progress"] == "Waiting for a worker to start it."

    await database_sync_to_async(QATrainingJob.objects.filter(pk=job.pk).update)(name="renamed")
    assert await communicator.receive_nothing(timeout=0.3)  # written without a push: nothing is polled

    running = await claim(job)
    assert (await communicator.receive_json_from(timeout=5))["run"]["display"]["progress"] == (
        "Loading the base model and the questions.")
    await database_sync_to_async(job_progress_save)(running, stage="training", step=3, total_steps=12, epoch=1,
                                                    loss=0.5, eta_seconds=90)
    run = (await communicator.receive_json_from(timeout=5))["run"]
    assert run["display"]["percent"] == 25.0
    assert run["display"]["progress"] == "Epoch 1 · step 3/12 · loss 0.500 · about 1:30 left"
    await database_sync_to_async(job_fail)(running, "RuntimeError: out of memory")
    run = (await communicator.receive_json_from(timeout=5))["run"]
    assert run["status"] == "failed" and run["error"] == "RuntimeError: out of memory"
    await communicator.disconnect()


async def test_others_and_unknown_jobs_are_refused(project, crowdworker, owner):
    job = await queued_job(project)
    for user in (crowdworker, AnonymousUser()):
        communicator = await socket_connect(websocket_urlpatterns, path(job), user)
        assert (await communicator.receive_json_from(timeout=5))["type"] == "error"
        assert (await communicator.receive_output(timeout=5))["code"] == 4403
    communicator = await socket_connect(websocket_urlpatterns, f"/ws/annotation/projects/{project.pk}/training/999999/",
                                        owner)
    assert (await communicator.receive_json_from(timeout=5))["message"] == "No such training job in this project."
    assert (await communicator.receive_output(timeout=5))["code"] == 4403


async def test_a_silent_socket_reads_its_job_again_after_the_stall_period(owner, project, settings):
    # A dead worker pushes nothing: the socket reads its active job once more after
    # STUMPER_JOB_STALL_SECONDS (+1 s) of silence, and only then (no 2 s re-reads: pushes reach
    # the web process in every setup, core.job_relay in the embedded one).
    settings.STUMPER_JOB_STALL_SECONDS = 2
    job = await queued_job(project)
    communicator = await socket_connect(websocket_urlpatterns, path(job), owner)
    assert (await communicator.receive_json_from(timeout=5))["run"]["status"] == "queued"
    await database_sync_to_async(QATrainingJob.objects.filter(pk=job.pk).update)(status="failed", error="Killed")
    assert await communicator.receive_nothing(timeout=1.5)
    run = (await communicator.receive_json_from(timeout=5))["run"]  # no push: read again after the stall period
    assert run["status"] == "failed" and run["error"] == "Killed"
    await communicator.disconnect()
