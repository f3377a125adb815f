"""core.jobs without a job table: worker ownership, task lookup by name, throttled progress.

Claiming, failing and resuming real jobs is tested through the three job kinds that use them
(collector/tests/services/test_scoring*.py, test_round_train_next_model.py,
evaluation/tests/services/test_evaluation_run.py).
"""
import os
import socket
from datetime import timedelta
from types import SimpleNamespace

from django.utils import timezone

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
