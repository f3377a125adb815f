"""The one background-job mechanism: claim, heartbeat, progress, finish, enqueue and resume.

A job is a ``core.models.BackgroundJob`` row; its Celery task takes the job's id and calls the
app's service, which calls ``job_claim`` first. A job is run by one worker at a time: a second
delivery of the task finds it running or finished and returns. A *resumable* job (scoring,
evaluation) records its worker as ``host:pid`` in ``progress["owner"]``; another worker takes it
over when the heartbeat is stale or when the owner was a process on this machine that no longer
exists (a killed worker is noticed at once, not after the stale period). A job that cannot resume
(training) is failed instead when its worker went silent.

Services enqueue their task by name (``task_enqueue``), so a service module never imports its
tasks module: the tasks import the services, not the other way round.

Every change of a job (claimed, progress, done, failed) is saved and pushed in one step: after
the write commits, ``job_push`` sends ``{"type": "job.update", ...}`` through the channel layer to
the job's group (``job_group``) and to the groups of what it belongs to (``push_scopes``, say its
round). Progress sockets (``core.sockets.ProgressSocketConsumer``) join those groups and answer
each push; they never poll the database. On the in-memory layer a separate worker's pushes are
carried to the web process over loopback HTTP (``core.job_relay``). A push that fails is logged and
never fails the job.

A running job whose heartbeat is older than ``STUMPER_JOB_STALL_SECONDS`` is shown as stalled
(``job_stall``, ``job_display``): every job's page, websocket and API say "stalled: no worker has
reported for N minutes" rather than the last "about 0:43 left" its dead worker wrote.
"""
import asyncio
import logging
import os
import socket
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any, TypeVar

from asgiref.sync import async_to_sync
from celery import Task, current_app
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext, pgettext

from core.i18n import digits
from core.job_relay import relay_configured, relay_needed, relay_send
from core.models import BackgroundJob

logger = logging.getLogger(__name__)
Job = TypeVar("Job", bound=BackgroundJob)
ERROR_MAX_CHARS = 4000
OWNER_KEY = "owner"  # progress[OWNER_KEY]: the worker's host:pid (worker_owner), never shown
STALLED = "stalled"  # the state shown for a running job whose worker went silent


def job_kind(job: BackgroundJob) -> str:
    """What kind of job it is, as pushes and pages name it: its model's label (``evaluation.evaluationrun``)."""
    return type(job)._meta.label_lower


def job_group(model: type[BackgroundJob], job_id: int) -> str:
    """The channel-layer group a job's updates are pushed to: ``job.<app>.<model>.<id>``."""
    return f"job.{model._meta.label_lower}.{job_id}"


def job_scope_group(scope: str, object_id: int) -> str:
    """The group of every job that belongs to one object (``push_scopes``), e.g. ``jobs.round.7``."""
    return f"jobs.{scope}.{object_id}"


def job_groups(job: BackgroundJob) -> list[str]:
    """The groups a push about ``job`` goes to: its own and those of its ``push_scopes``."""
    groups = [job_group(type(job), job.pk)]
    for scope in type(job).push_scopes:
        object_id = getattr(job, f"{scope}_id", None)
        if object_id is not None:
            groups.append(job_scope_group(scope, object_id))
    return groups


def job_push(job: BackgroundJob, status: str) -> None:
    """Tell the job's sockets that it changed, once the write commits (at once outside a transaction).

    Sockets re-read the job on the push (its texts are worded in each socket's language), so the
    message names the job and its status only. Never raises: a job's work must not fail because
    no socket could be told (Redis down, no channel layer).
    """
    groups = job_groups(job)
    message = {"type": "job.update", "job": job_kind(job), "id": job.pk, "status": str(status)}

    def send() -> None:
        try:
            if relay_needed():
                relay_send(groups, message)
            else:
                job_push_local(groups, message)
        except Exception as error:
            logger.warning("Could not push the update of %s %s: %s", type(job).__name__, job.pk, error)

    transaction.on_commit(send)


def job_push_local(groups: list[str], message: dict) -> None:
    """Send ``message`` to ``groups`` through this process's channel layer (Redis reaches every
    process; the in-memory layer only this one's sockets, which ``core.job_relay`` brings pushes to)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # the usual case: a worker's or a request's thread, no event loop running
        for group in groups:
            async_to_sync(layer.group_send)(group, message)
        return
    # Called from a thread that runs an event loop (async_to_sync refuses there): send from another.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(job_push_local, groups, message).result(timeout=30)


def job_pushes_reach_web() -> bool:
    """Whether a worker's pushes reach the web process's sockets: through Redis, with tasks run in
    the web process itself (eager), or relayed to it over loopback HTTP (``core.job_relay``, the
    embedded setup of ``scripts/start.sh``). Not with the in-memory layer, a separate worker and no
    ``STUMPER_JOB_PUSH_URL``: its pages then hear of a job only on the stall re-read."""
    return (settings.CELERY_TASK_ALWAYS_EAGER or not isinstance(get_channel_layer(), InMemoryChannelLayer)
            or relay_configured())


def worker_owner() -> str:
    """``host:pid`` of this process: the one identity of a worker (``job_owner`` reads it back)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def job_owner(progress: dict) -> str:
    """The ``host:pid`` of the worker that last claimed a resumable job ("" if none did): the one
    place the worker's identity is read from a job's progress."""
    return str((progress or {}).get(OWNER_KEY, ""))


def owner_is_dead(owner: str) -> bool:
    """True when ``owner`` was a process on this machine that no longer exists."""
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def held_by_another_worker(*, running: bool, owner: str, heartbeat_at: datetime | None, stale_after: timedelta) -> bool:
    """True when a running job belongs to another live worker whose heartbeat is fresh."""
    fresh = heartbeat_at is not None and timezone.now() - heartbeat_at < stale_after
    return running and owner != worker_owner() and fresh and not owner_is_dead(owner)


def task_get(task_name: str) -> Task:
    """The registered Celery task ``task_name``.

    The apps' tasks modules are imported on first use through Celery's autodiscovery (the web
    process imports them only then), so a service that enqueues a task needs no import of it.
    """
    app = current_app
    if task_name not in app.tasks:
        app.loader.import_default_modules()
    return app.tasks[task_name]


def task_enqueue(task_name: str, *args: Any) -> None:
    """Send the task ``task_name`` (run eagerly in tests, as configured): the one way work is queued.

    A broker that refuses only delays the work: it is logged, and the row the task works on (a
    queued job, a pending prediction) stays as it is until a worker's sweep at start-up
    (``jobs_resume``) or the next request sends it again.
    """
    try:
        task_get(task_name).delay(*args)
    except Exception:
        logger.exception("Could not enqueue %s%r; a worker picks it up when it starts", task_name, args)


def job_claim(model: type[Job], job_id: int, *, progress: Callable[[dict], dict], resumable: bool,
              stale_after: timedelta) -> Job | None:
    """Mark the job as this worker's and running; None when it is finished or another worker has it.

    ``progress`` makes the job's new progress from its stored one. A job that cannot resume is
    claimed only while queued.
    """
    with transaction.atomic():
        # No select_related here: PostgreSQL refuses FOR UPDATE on the nullable side of an outer join.
        job = model.objects.select_for_update().get(pk=job_id)
        if job.status in model.FINISHED:
            return None
        if job.status == model.Status.RUNNING and (not resumable or held_by_another_worker(
                running=True, owner=job_owner(job.progress), heartbeat_at=job.heartbeat_at,
                stale_after=stale_after)):
            return None
        now = timezone.now()
        job.status = model.Status.RUNNING
        job.started_at = job.started_at or now
        job.heartbeat_at = now
        job.progress = {**progress(job.progress), **({OWNER_KEY: worker_owner()} if resumable else {})}
        job.error = ""
        job.save(update_fields=["status", "started_at", "heartbeat_at", "progress", "error"])
    job_push(job, job.status)
    return job


def job_progress_shown(job: BackgroundJob) -> dict:
    """The job's progress as its pages, websockets and APIs show it: without the worker's
    ``host:pid`` (``owner``), which stays on the server."""
    return {key: value for key, value in (job.progress or {}).items() if key != OWNER_KEY}


def job_stall(job: BackgroundJob, *, now: datetime | None = None) -> str:
    """"stalled: no worker has reported for N minutes" (in the active language) when the job is
    running and its worker has not beaten the heartbeat for ``STUMPER_JOB_STALL_SECONDS``; else "".

    The one test of a stalled job: ``job_display`` and ``core.apis.JobSerializer`` use it, so
    every job's page, websocket and API agree.
    """
    if job.status != BackgroundJob.Status.RUNNING:
        return ""
    last = job.heartbeat_at or job.started_at
    silent = ((now or timezone.now()) - last).total_seconds() if last is not None else None
    if silent is None or silent < settings.STUMPER_JOB_STALL_SECONDS:
        return ""
    minutes = max(1, int(silent // 60))
    return ngettext("stalled: no worker has reported for %(minutes)s minute",
                    "stalled: no worker has reported for %(minutes)s minutes", minutes) % {"minutes": digits(minutes)}


def job_state(job: BackgroundJob) -> str:
    """The job's status, or "stalled" for a running job whose worker went silent (``job_stall``)."""
    return STALLED if job_stall(job) else str(job.status)


def job_display(job: BackgroundJob, display: dict) -> dict:
    """A job's ``display`` (its status and progress in words) with ``state`` (``job_state``) and
    ``stalled`` (``job_stall``): a stalled job's badge says "Stalled" and its progress line says
    why, instead of what its silent worker last wrote."""
    stalled = job_stall(job)
    if not stalled:
        return {**display, "state": str(job.status), "stalled": ""}
    return {**display, "state": STALLED, "status": pgettext("job state", "Stalled"), "stalled": stalled,
            "progress": stalled}


def job_progress_save(job: BackgroundJob, **fields: Any) -> None:
    """Merge ``fields`` into the job's progress and beat its heartbeat."""
    job.progress = {**job.progress, **fields}
    type(job).objects.filter(pk=job.pk).update(progress=job.progress, heartbeat_at=timezone.now())
    job_push(job, job.status)


class ProgressWriter:
    """Base of a job's progress callback: ``save`` writes at most once every ``every`` seconds.

    Subclasses turn what the computation reports into progress fields and call ``save``; the
    final step (``final=True``) is always written.
    """

    every = 1.0

    def __init__(self, job: BackgroundJob):
        self.job, self.last = job, float("-inf")  # the first report is always written

    def save(self, *, final: bool = False, **fields: Any) -> bool:
        now = time.monotonic()
        if now - self.last < self.every and not final:
            return False
        self.last = now
        job_progress_save(self.job, **fields)
        return True


def job_fail(job: BackgroundJob, error: Exception | str, **fields: Any) -> None:
    """Store the error (``Type: message``, or the text given) and mark the job failed."""
    text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    type(job).objects.filter(pk=job.pk).update(
        status=type(job).Status.FAILED, error=text[:ERROR_MAX_CHARS], finished_at=timezone.now(), **fields
    )
    job_push(job, type(job).Status.FAILED)


def job_done(job: BackgroundJob, *, expect_status: str | None = None, **fields: Any) -> bool:
    """Mark the job done, storing ``fields`` (its result, final progress) with it.

    With ``expect_status`` only a job still in that status is marked, in one conditional UPDATE:
    of several workers finishing the same job at once exactly one does (returns True).
    """
    jobs = type(job).objects.filter(pk=job.pk)
    if expect_status is not None:
        jobs = jobs.filter(status=expect_status)
    if not jobs.update(status=type(job).Status.DONE, finished_at=timezone.now(), **fields):
        return False
    job_push(job, type(job).Status.DONE)
    return True


def jobs_resume(model: type[BackgroundJob], *, enqueue: Callable[[int], None], resumable: bool,
                stale_after: timedelta, stale_error: str = "") -> int:
    """Enqueue again the jobs left behind while no worker ran; called when a worker starts.

    Resumable jobs are all re-enqueued (``job_claim`` leaves the ones a live worker holds).
    Others are failed with ``stale_error`` when their worker went silent, and only the queued
    ones are enqueued again. Returns how many were enqueued.
    """
    if resumable:
        ids = list(model.objects.filter(status__in=model.ACTIVE).values_list("pk", flat=True))
    else:
        silent = model.objects.filter(status=model.Status.RUNNING, heartbeat_at__lt=timezone.now() - stale_after)
        failed = list(silent)
        silent.update(status=model.Status.FAILED, finished_at=timezone.now(), error=stale_error)
        for job in failed:
            job_push(job, model.Status.FAILED)
        ids = list(model.objects.filter(status=model.Status.QUEUED).values_list("pk", flat=True))
    for job_id in ids:
        enqueue(job_id)
    return len(ids)
