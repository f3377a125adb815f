"""Scale-out: two web processes and separate Celery workers cooperate through PostgreSQL and Redis.

Everything runs as separate processes with production-like settings (``config.settings.local``:
Redis channel layer, Redis cache, Redis broker, no eager tasks), against the test database:

- web A and web B (daphne on two ports) behind an imaginary load balancer that sends one
  browser's requests to either: the session and CSRF token made on A work on B;
- failed sign-ins counted on A block the account on B (the Redis cache is shared);
- a question submitted on B is seen on A; a scoring run started on B is queued in Redis, run by
  a worker process that serves only the training queue, and its progress reaches the
  instructor's websocket on A (which reads it from PostgreSQL);
- the worker for the default and inference queues is another process.

Needs PostgreSQL and Redis (the second pass of scripts/test.sh); skipped on the embedded default.
"""
import json
import os
import secrets
import time
import uuid
from pathlib import Path

import pytest
import requests
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from rest_framework.authtoken.models import Token
from websockets.sync.client import connect as ws_connect

from accounts.services import user_create
from collector.models import ScoringRun
from collector.tests.factories import toy_scoring_round
from tests.faults import web_process
from tests.worker import celery_worker, database_url_of_test_db, wait_for

PASSWORD = "a-long-test-password-42"

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not (os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")),
                       reason="scale-out needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL)"),
]


def _environment(tmp_path: Path, secret_key: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local", STUMPER_ENV_FILE="/dev/null", SECRET_KEY=secret_key,
        DATABASE_URL=database_url_of_test_db(), CELERY_TASK_ALWAYS_EAGER="false", STUMPER_VAR_DIR=str(tmp_path / "var"),
        STUMPER_LOGIN_MAX_FAILURES="3", HF_HUB_OFFLINE="1",
    )
    env.pop("CELERY_BROKER_URL", None)  # the broker is REDIS_URL, as in the documented deployment
    return env


def _sign_in(session: requests.Session, base: str, username: str, password: str) -> requests.Response:
    session.get(f"{base}/accounts/login/")
    return session.post(f"{base}/accounts/login/", data={
        "username": username, "password": password, "csrfmiddlewaretoken": session.cookies["csrftoken"],
    }, headers={"Referer": f"{base}/accounts/login/"}, allow_redirects=False)


@pytest.fixture
def round_with_questions(open_round, student, tiny_model_dir):
    config = {"epochs": 2, "batch_size": 8, "max_length": 32, "freeze_layers": 1, "threads": 1}
    return toy_scoring_round(open_round, student, tiny_model_dir, config, questions=20, seed=3)


def test_two_web_processes_and_queue_workers_cooperate(round_with_questions, instructor, student, tmp_path):
    round_ = round_with_questions
    # Hashed as the web processes' settings expect (the test settings' fast hasher is not theirs).
    instructor.password = PBKDF2PasswordHasher().encode(PASSWORD, PBKDF2PasswordHasher().salt())
    instructor.save()
    env = _environment(tmp_path, secrets.token_urlsafe(50))
    with web_process(env, tmp_path / "web-a.log") as web_a, web_process(env, tmp_path / "web-b.log") as web_b, \
            celery_worker(tmp_path / "worker-default.log", queues="default,inference", environment=env), \
            celery_worker(tmp_path / "worker-training.log", queues="training", environment=env):
        # One browser, its requests spread over both web processes.
        browser = requests.Session()
        assert _sign_in(browser, web_a, instructor.username, PASSWORD).status_code == 302
        assert browser.get(f"{web_b}/rounds/{round_.pk}/").status_code == 200  # session made on A, used on B

        # Failed sign-ins on A count on B: the shared Redis cache holds the counts.
        victim = user_create(username=f"victim-{uuid.uuid4().hex[:8]}", password=PASSWORD)
        for _ in range(3):
            assert _sign_in(requests.Session(), web_a, victim.username, "wrong").status_code == 200
        assert _sign_in(requests.Session(), web_b, victim.username, PASSWORD).status_code == 429

        # A question submitted on B (token auth, as an API client would) is in A's list.
        token = Token.objects.create(user=student).key
        submitted = requests.post(f"{web_b}/api/questions/submit/", json={
            "round_id": round_.pk, "prompt": "The bread came out of the oven. It", "correct_index": 0,
            "choices": ["smelled wonderful.", "sang loudly.", "drove away.", "melted the snow."]},
            headers={"Authorization": f"Token {token}"}, timeout=60)
        assert submitted.status_code == 201, submitted.text
        listed = requests.get(f"{web_a}/api/questions/", headers={"Authorization": f"Token {token}"}, timeout=30).json()
        assert submitted.json()["id"] in [q["id"] for q in listed["results"]]

        # Scoring started on B (form + CSRF from the session made on A) runs in the training worker;
        # the instructor's websocket on A shows its progress until it is done.
        started = browser.post(f"{web_b}/rounds/{round_.pk}/scoring/", data={
            "kind": "cross_validation", "folds": 2, "trials": 1, "csrfmiddlewaretoken": browser.cookies["csrftoken"],
        }, headers={"Referer": f"{web_b}/rounds/{round_.pk}/"}, allow_redirects=False)
        assert started.status_code == 302
        run = ScoringRun.objects.get(round=round_)
        cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        statuses = []
        with ws_connect(f"ws://{web_a.removeprefix('http://')}/ws/rounds/{round_.pk}/scoring/",
                        additional_headers={"Cookie": cookie, "Origin": web_a}, open_timeout=30) as socket:
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline and "done" not in statuses and "failed" not in statuses:
                message = json.loads(socket.recv(timeout=240))
                if message["type"] == "scoring":
                    statuses += [r["status"] for r in message["runs"] if r["id"] == run.pk]
        assert statuses[-1] == "done", statuses
        wait_for(lambda: ScoringRun.objects.get(pk=run.pk).status == ScoringRun.Status.DONE, timeout=10)
        training_log = (tmp_path / "worker-training.log").read_text()
        default_log = (tmp_path / "worker-default.log").read_text()
        # Routed by kind: the run went to the training queue's worker only.
        assert "Task collector.scoring_run[" in training_log and "Task collector.scoring_run[" not in default_log
