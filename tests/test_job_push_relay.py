"""Job pushes across processes on the in-memory channel layer (``core.job_relay``, the embedded setup).

Live: a daphne web process on the in-memory layer serves a round's progress socket; another
process (as a Celery worker would) fails the round's scoring run through ``core.jobs`` with
``STUMPER_JOB_PUSH_URL`` pointing at the web process, and the open socket hears it at once, where
it would otherwise hear it only at the stall re-read (10 minutes here). A write with no push
sends nothing: the socket does not poll.

Then the endpoint's refusals, in-process: not loopback, no or a wrong signature, a stale push, a
body too large, too deep or not a push, a GET, and the endpoint off without the setting.
"""
import asyncio
import contextlib
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings as django_settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.urls import reverse
from django.utils.crypto import salted_hmac
from websockets.sync.client import connect as ws_connect

from collector.models import ScoringRun
from core.job_relay import SIGNATURE_HEADER, relay_body, relay_signature
from core.jobs import job_scope_group
from tests.faults import web_process
from tests.worker import worker_environment

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "a-long-test-password-42"
IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _environment(**extra: str) -> dict[str, str]:
    """A separate process on the test database and the in-memory layer, with the test's SECRET_KEY."""
    env = worker_environment()
    for name in ("REDIS_URL", "CELERY_BROKER_URL"):
        env.pop(name, None)
    env.update(SECRET_KEY=django_settings.SECRET_KEY, STUMPER_JOB_STALL_SECONDS="600", STUMPER_ENV_FILE="/dev/null",
               STUMPER_PRELOAD_MODELS="false", **extra)
    return env


def _signed_in(base: str, username: str) -> requests.Session:
    session = requests.Session()
    session.get(f"{base}/accounts/login/", timeout=30)
    response = session.post(f"{base}/accounts/login/", data={
        "username": username, "password": PASSWORD, "csrfmiddlewaretoken": session.cookies["csrftoken"],
    }, headers={"Referer": f"{base}/accounts/login/"}, allow_redirects=False, timeout=30)
    assert response.status_code == 302
    return session


def _runs(socket, *, timeout: float) -> list[dict]:
    """The runs of the next ``scoring`` message (skipping the socket's other parts)."""
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(socket.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] == "scoring":
            return message["runs"]


@pytest.mark.django_db(transaction=True)
def test_a_worker_process_push_reaches_the_web_process_socket(round_, instructor, settings, tmp_path):
    settings.CHANNEL_LAYERS = IN_MEMORY
    instructor.password = PBKDF2PasswordHasher().encode(PASSWORD, PBKDF2PasswordHasher().salt())
    instructor.save()
    run = ScoringRun.objects.create(round=round_, folds=2, question_ids=[1, 2], status=ScoringRun.Status.RUNNING,
                                    progress={"done_folds": 0, "total_folds": 2})
    # The web process needs the setting only to accept relayed pushes; it never posts to itself.
    web_env = _environment(DJANGO_SETTINGS_MODULE="config.settings.local", CELERY_TASK_ALWAYS_EAGER="false",
                           STUMPER_JOB_PUSH_URL="http://127.0.0.1:1/unused/", STUMPER_VAR_DIR=str(tmp_path / "var"))
    with web_process(web_env, tmp_path / "web.log") as web, _log_on_failure(tmp_path / "web.log"):
        cookie = "; ".join(f"{k}={v}" for k, v in _signed_in(web, instructor.username).cookies.items())
        with ws_connect(f"ws://{web.removeprefix('http://')}/ws/rounds/{round_.pk}/scoring/",
                        additional_headers={"Cookie": cookie, "Origin": web}, open_timeout=30) as socket:
            assert [r["status"] for r in _runs(socket, timeout=20)] == ["running"]
            ScoringRun.objects.filter(pk=run.pk).update(error="written without a push")
            with pytest.raises(TimeoutError):
                _runs(socket, timeout=3)  # nothing is polled
            worker = subprocess.run([sys.executable, "-c", (
                "import django; django.setup()\n"
                "from collector.models import ScoringRun\nfrom core.jobs import job_fail\n"
                f"job_fail(ScoringRun.objects.get(pk={run.pk}), 'RuntimeError: killed in the worker')\n"
            )], cwd=ROOT, env=_environment(STUMPER_JOB_PUSH_URL=f"{web}{reverse('job_push_relay')}"),
                capture_output=True, text=True, timeout=120)
            assert worker.returncode == 0, worker.stderr
            assert "Could not push" not in worker.stderr, worker.stderr
            runs = _runs(socket, timeout=10)
            assert [(r["id"], r["status"], r["error"]) for r in runs] == [
                (run.pk, "failed", "RuntimeError: killed in the worker")]


@contextlib.contextmanager
def _log_on_failure(log: Path) -> Iterator[None]:
    """A failure inside says what the web process logged."""
    try:
        yield
    except Exception as error:
        raise AssertionError(f"{error!r}\n--- web.log ---\n{log.read_text(errors='replace')[-6000:]}") from error


def _post(client, body: bytes, *, signature: str | None = None, **extra):
    headers = {"HTTP_" + SIGNATURE_HEADER.upper().replace("-", "_"): relay_signature(body) if signature is None
               else signature}
    return client.post(reverse("job_push_relay"), data=body, content_type="application/json", **headers, **extra)


@pytest.fixture
def relay_on(settings):
    settings.CHANNEL_LAYERS = IN_MEMORY
    settings.STUMPER_JOB_PUSH_URL = "http://127.0.0.1:8000/internal/jobs/push/"


MESSAGE = {"type": "job.update", "job": "collector.scoringrun", "id": 7, "status": "running"}


async def _heard(group: str, send) -> dict | None:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    await send()
    try:
        return await asyncio.wait_for(layer.receive(channel), timeout=1)
    except TimeoutError:
        return None


@pytest.mark.django_db
def test_a_signed_push_from_loopback_is_sent_to_the_groups(client, relay_on):
    group = job_scope_group("round", 3)
    responses = []

    async def send():
        responses.append(await sync_to_async(_post)(client, relay_body([group], MESSAGE)))

    assert async_to_sync(_heard)(group, send) == MESSAGE
    assert responses[0].status_code == 204


@pytest.mark.django_db
@pytest.mark.parametrize("case", ["not loopback", "no signature", "wrong signature", "other key", "stale", "off"])
def test_refused_with_403(client, relay_on, settings, case):
    body = relay_body(["jobs.round.3"], MESSAGE, sent=time.time() - 3600 if case == "stale" else None)
    extra, signature = {}, None
    if case == "not loopback":
        extra = {"REMOTE_ADDR": "203.0.113.9"}
    elif case == "no signature":
        signature = ""
    elif case == "wrong signature":
        signature = relay_signature(body)[:-1] + "0"
    elif case == "other key":
        signature = salted_hmac("core.job_relay", body, secret="another-" + settings.SECRET_KEY,
                                algorithm="sha256").hexdigest()
    elif case == "off":
        settings.STUMPER_JOB_PUSH_URL = ""
    responses = []

    async def send():
        responses.append(await sync_to_async(_post)(client, body, signature=signature, **extra))

    heard = async_to_sync(_heard)("jobs.round.3", send)
    expected = 400 if case == "stale" else 403  # a stale push is signed: it is refused as not a push
    assert (responses[0].status_code, heard) == (expected, None)


@pytest.mark.django_db
@pytest.mark.parametrize(("body", "status"), [  # made when the test runs: a push is only good for minutes
    (lambda: b"{" + b'"a":' * 3000 + b"}", 413),  # too large, refused before its signature is checked
    (lambda: b"[" * 2000 + b"]" * 2000, 400),  # deep, signed
    (lambda: json.dumps({"groups": [[[["jobs.round.3"]]]], "message": MESSAGE, "sent": time.time()}).encode(), 400),
    (lambda: b'{"groups": ["jobs.round.3"], "message": ', 400),
    (lambda: relay_body(["chat.lobby"], MESSAGE), 400),
    (lambda: relay_body(["jobs.round.3"], {**MESSAGE, "type": "websocket.close"}), 400),
    (lambda: relay_body(["jobs.round.3"] * 17, MESSAGE), 400),
    (lambda: relay_body(["jobs.round.3"], {**MESSAGE, "extra": "x"}), 400),
    (lambda: relay_body(["jobs.round.3"], {**MESSAGE, "id": "7"}), 400),
    (lambda: "\ud800".encode("utf-8", "surrogatepass"), 400),
])
def test_bodies_that_are_not_a_push_are_refused(client, relay_on, body, status):
    assert _post(client, body()).status_code == status


@pytest.mark.django_db
def test_only_post(client, relay_on):
    assert client.get(reverse("job_push_relay")).status_code == 405
