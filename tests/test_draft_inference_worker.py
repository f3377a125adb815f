"""Live drafts scored on an inference worker (``STUMPER_INFERENCE_MODE=worker``), across processes.

A daphne web process in worker mode and, later, a Celery worker that serves only the
``inference`` queue, against the test database (production-like ``config.settings.local``:
Redis broker, result backend and channel layer, no eager tasks):

- while no inference worker runs, an author's draft gets the "unavailable" status within
  ``STUMPER_INFERENCE_TIMEOUT`` and the author can still submit, the prediction left pending: the
  web process did not fall back to its own copy of the model, although the model's files are
  right there;
- once the inference worker runs, the author's drafts get predictions that the worker computed,
  the batch sent while none ran is dropped by it (expired), not computed for nobody, and the
  submission's pending prediction is computed there.

Needs PostgreSQL and Redis (the second pass of scripts/test.sh); skipped on the embedded default.
The start-up refusals at the top need neither.
"""
import json
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from websockets.sync.client import connect as ws_connect

from collector.models import Prediction, Question
from tests.faults import web_process
from tests.worker import celery_worker, database_url_of_test_db, wait_for

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "a-long-test-password-42"
TIMEOUT = 3.0  # STUMPER_INFERENCE_TIMEOUT of the web process
DRAFT = {"type": "draft", "prompt": "The glass fell off the table. It", "answer": 0,
         "choices": ["shattered.", "sang a song.", "grew wings.", "paid the rent."]}
needs_services = pytest.mark.skipif(
    not (os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")),
    reason="needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL)",
)


def _start(**environment: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "CELERY_BROKER_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.local", STUMPER_ENV_FILE="/dev/null", SECRET_KEY="x" * 50,
               **environment)
    return subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_worker_mode_without_redis_refuses_to_start():
    result = _start(STUMPER_INFERENCE_MODE="worker")
    assert result.returncode != 0
    assert "ImproperlyConfigured: STUMPER_INFERENCE_MODE=worker needs REDIS_URL" in result.stderr


def test_an_unknown_draft_inference_mode_refuses_to_start():
    result = _start(STUMPER_INFERENCE_MODE="gpu")
    assert result.returncode != 0
    assert 'STUMPER_INFERENCE_MODE must be "local" or "worker"' in result.stderr


def _environment(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local", STUMPER_ENV_FILE="/dev/null",
        SECRET_KEY=secrets.token_urlsafe(50), DATABASE_URL=database_url_of_test_db(),
        CELERY_TASK_ALWAYS_EAGER="false", STUMPER_VAR_DIR=str(tmp_path / "var"), HF_HUB_OFFLINE="1",
        STUMPER_INFERENCE_MODE="worker", STUMPER_INFERENCE_TIMEOUT=str(TIMEOUT),
    )
    env.pop("CELERY_BROKER_URL", None)  # the broker is REDIS_URL, as in the documented deployment
    return env


def _signed_in(base: str, username: str) -> requests.Session:
    session = requests.Session()
    session.get(f"{base}/accounts/login/")
    response = session.post(f"{base}/accounts/login/", data={
        "username": username, "password": PASSWORD, "csrfmiddlewaretoken": session.cookies["csrftoken"],
    }, headers={"Referer": f"{base}/accounts/login/"}, allow_redirects=False)
    assert response.status_code == 302
    return session


def _reply_to(socket, seq: int) -> dict:
    """The server's answer to draft ``seq`` (skipping late answers to earlier drafts)."""
    while True:
        message = json.loads(socket.recv(timeout=60))
        if message.get("seq") == seq:
            return message


@needs_services
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_drafts_are_scored_by_the_inference_worker_and_unavailable_without_one(open_round, student, tmp_path):
    # Hashed as the web process's settings expect (the test settings' fast hasher is not theirs).
    student.password = PBKDF2PasswordHasher().encode(PASSWORD, PBKDF2PasswordHasher().salt())
    student.save()
    env = _environment(tmp_path)
    worker_log = tmp_path / "worker-inference.log"
    with web_process(env, tmp_path / "web.log") as web:
        browser = _signed_in(web, student.username)
        cookie = "; ".join(f"{key}={value}" for key, value in browser.cookies.items())
        with ws_connect(f"ws://{web.removeprefix('http://')}/ws/author/{open_round.pk}/",
                        additional_headers={"Cookie": cookie, "Origin": web}, open_timeout=30) as socket:
            # No inference worker: the author hears "unavailable" in time and the socket stays usable.
            started = time.monotonic()
            socket.send(json.dumps({**DRAFT, "seq": 1}))
            reply = _reply_to(socket, 1)
            assert reply["type"] == "status" and reply["state"] == "unavailable", reply
            assert time.monotonic() - started < TIMEOUT + 5
            socket.send(json.dumps({"type": "ping"}))
            assert json.loads(socket.recv(timeout=10)) == {"type": "pong"}

            # ... and can still submit.
            write = f"{web}/rounds/{open_round.pk}/write/"
            browser.get(write)
            submitted = browser.post(write, data={
                "prompt": DRAFT["prompt"], **{f"choice_{i}": c for i, c in enumerate(DRAFT["choices"])},
                "answer": "0", "categories": ["other"], "csrfmiddlewaretoken": browser.cookies["csrftoken"],
            }, headers={"Referer": write}, allow_redirects=False, timeout=60)
            assert submitted.status_code == 302, submitted.text[-2000:]
            assert Question.objects.filter(round=open_round, author=student).count() == 1
            # Worker mode: the web process scored nothing itself; the prediction waits for a worker.
            prediction = Prediction.objects.get(question__round=open_round)
            assert prediction.status == Prediction.Status.PENDING and prediction.attempts == 0

            # An inference worker starts: the next drafts are scored there.
            with celery_worker(worker_log, queues="inference", environment=env):
                wait_for(lambda: " ready." in worker_log.read_text(errors="replace"), timeout=90, log_path=worker_log)
                deadline, seq, reply = time.monotonic() + 120, 1, {}
                # The worker imports torch and loads the model on its first batch, which may take
                # longer than the web process waits; the author's next change is then answered.
                while reply.get("type") != "prediction" and time.monotonic() < deadline:
                    seq += 1
                    socket.send(json.dumps({**DRAFT, "seq": seq}))
                    reply = _reply_to(socket, seq)
                    assert reply["type"] in ("prediction", "status"), reply
                assert reply["type"] == "prediction", worker_log.read_text(errors="replace")[-4000:]
                assert reply["model_version"] == open_round.live_model.name and len(reply["probs"]) == 4
                assert reply["fooled"] == (reply["predicted"] != 0)
                log = worker_log.read_text(errors="replace")
                assert "Task modelhub.predict_mc_drafts[" in log and "succeeded" in log
                # The batch sent while no worker ran had expired: it was dropped, not computed for nobody.
                assert "Discarding revoked task: modelhub.predict_mc_drafts[" in log
                # The submission's prediction, queued at submission, is computed by the worker too.
                wait_for(lambda: Prediction.objects.get(pk=prediction.pk).status == Prediction.Status.DONE,
                         timeout=120, log_path=worker_log)
                assert Prediction.objects.get(pk=prediction.pk).probs is not None
