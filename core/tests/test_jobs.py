"""core.jobs without a job table: worker ownership, task lookup by name, throttled progress, the
push of each change through the channel layer, stalled jobs.

Claiming, failing and resuming real jobs is tested through the three job kinds that use them
(collector/tests/services/test_scoring*.py, test_round_train_next_model.py,
evaluation/tests/services/test_evaluation_run.py).
"""
import asyncio
import os
import socket
from datetime import timedelta
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone, translation

from core import jobs


def test_this_process_owns_what_it_runs_and_a_dead_local_owner_is_noticed():
    assert jobs.worker_owner() == f"{socket.gethostname()}:{os.getpid()}"
    assert not jobs.owner_is_dead(jobs.worker_owner())
    assert jobs.owner_is_dead(f"{socket.gethostname()}:{2**22 + 12345}")  # beyond pid_max: no such process
    assert not jobs.owner_is_dead("another-host:1")  # other machines are judged by their heartbeat


def test_held_by_another_worker_only_while_its_heartbeat_is_fresh():
    fresh, stale = timezone.now(), timezone.now() - timedelta(minutes=5)
    other = "another-host:1"
    assert jobs.held_by_another_worker(running=True, owner=other, heartbeat_at=fresh, stale_after=timedelta(minutes=1))
    assert not jobs.held_by_another_worker(running=True, owner=other, heartbeat_at=stale,
                                           stale_after=timedelta(minutes=1))
    assert not jobs.held_by_another_worker(running=False, owner=other, heartbeat_at=fresh,
                                           stale_after=timedelta(minutes=1))
    assert not jobs.held_by_another_worker(running=True, owner=jobs.worker_owner(), heartbeat_at=fresh,
                                           stale_after=timedelta(minutes=1))


def test_a_task_is_found_by_name_without_importing_its_module_first():
    task = jobs.task_get("collector.scoring_run")
    assert task.name == "collector.scoring_run" and task.acks_late


def test_progress_writer_writes_at_most_once_per_period_but_always_the_final_step(monkeypatch):
    written = []
    monkeypatch.setattr(jobs, "job_progress_save", lambda job, **fields: written.append(fields))
    writer = jobs.ProgressWriter(SimpleNamespace(pk=1, progress={}))
    writer.every = 3600.0
    assert writer.save(step=1) and not writer.save(step=2) and writer.save(final=True, step=3)
    assert written == [{"step": 1}, {"step": 3}]


def running_job(*, silent_for: timedelta | None, status: str = "running") -> SimpleNamespace:
    beat = None if silent_for is None else timezone.now() - silent_for
    return SimpleNamespace(status=status, heartbeat_at=beat, started_at=beat)


def test_a_running_job_whose_worker_went_silent_is_stalled(settings):
    settings.STUMPER_JOB_STALL_SECONDS = 300
    assert jobs.job_stall(running_job(silent_for=timedelta(minutes=12, seconds=40))) == (
        "stalled: no worker has reported for 12 minutes")
    assert jobs.job_stall(running_job(silent_for=timedelta(seconds=299))) == ""
    settings.STUMPER_JOB_STALL_SECONDS = 30
    assert jobs.job_stall(running_job(silent_for=timedelta(seconds=40))) == "stalled: no worker has reported for 1 minute"
    # Only a running job: a queued or finished one has no worker to wait for.
    assert jobs.job_stall(running_job(silent_for=timedelta(hours=2), status="done")) == ""
    assert jobs.job_stall(running_job(silent_for=timedelta(hours=2), status="queued")) == ""
    assert jobs.job_stall(running_job(silent_for=None)) == ""


def test_a_stalled_job_says_so_instead_of_its_last_time_left_in_persian_too(settings):
    settings.STUMPER_JOB_STALL_SECONDS = 60
    job = running_job(silent_for=timedelta(minutes=7))
    display = jobs.job_display(job, {"status": "Running", "progress": "Fold 2 of 5 · about 0:43 left"})
    assert display == {"status": "Stalled", "state": "stalled",
                       "progress": "stalled: no worker has reported for 7 minutes",
                       "stalled": "stalled: no worker has reported for 7 minutes"}
    assert jobs.job_state(job) == "stalled"
    fresh_job = running_job(silent_for=timedelta(seconds=5))
    fresh = jobs.job_display(fresh_job, {"progress": "about 0:43 left"})
    assert fresh == {"progress": "about 0:43 left", "state": "running", "stalled": ""}
    assert jobs.job_state(fresh_job) == "running"
    with translation.override("fa"):
        assert jobs.job_stall(job) == "متوقف شده: ۷ دقیقه است که هیچ پردازشگری گزارشی نداده است"
        assert jobs.job_display(job, {})["status"] == "متوقف"


class FakeJob(SimpleNamespace):
    """What ``job_push`` reads of a job: its model's label, its id and its ``push_scopes``."""

    _meta = SimpleNamespace(label_lower="tests.fakejob")
    push_scopes = ("round",)


@pytest.mark.django_db(transaction=True)  # pushed once the write commits: at once outside a transaction
async def test_each_change_is_pushed_to_the_jobs_group_and_its_scopes():
    layer = get_channel_layer()
    job_channel, round_channel = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("job.tests.fakejob.7", job_channel)
    await layer.group_add("jobs.round.3", round_channel)
    await sync_to_async(jobs.job_push)(FakeJob(pk=7, round_id=3), "running")
    expected = {"type": "job.update", "job": "tests.fakejob", "id": 7, "status": "running"}
    assert await asyncio.wait_for(layer.receive(job_channel), 5) == expected
    assert await asyncio.wait_for(layer.receive(round_channel), 5) == expected
    assert jobs.job_groups(FakeJob(pk=8, round_id=None)) == ["job.tests.fakejob.8"]


@pytest.mark.django_db(transaction=True)
def test_a_push_that_fails_is_logged_and_never_fails_the_job(monkeypatch, caplog):
    class BrokenLayer:
        async def group_send(self, group, message):
            raise ConnectionError("Redis is down")

    monkeypatch.setattr(jobs, "get_channel_layer", BrokenLayer)
    jobs.job_push(FakeJob(pk=7, round_id=3), "done")  # does not raise
    assert "Could not push the update of FakeJob 7: Redis is down" in caplog.text
