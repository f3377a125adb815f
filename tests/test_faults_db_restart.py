"""Fault: the database restarts between two requests.

A PostgreSQL cluster of our own (initdb + pg_ctl on a free port; the shared server is never
touched) serves a real daphne process. After ``pg_ctl restart`` every connection the web
process held is dead; the next requests must still succeed, with one connection per request
(CONN_MAX_AGE=0, the default) and with persistent connections (CONN_MAX_AGE=60), where
CONN_HEALTH_CHECKS finds the dead connection and replaces it.
"""
import json
import os
import secrets
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.faults import ThrowawayPostgres, postgres_binaries, web_process

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    postgres_binaries() is None or (os.geteuid() == 0 and shutil.which("runuser") is None),
    reason="PostgreSQL server binaries (initdb, pg_ctl) are not installed",
)


@pytest.fixture(scope="module")
def postgres():
    server = ThrowawayPostgres(postgres_binaries())
    server.init()
    server.start()
    subprocess.run([*server.as_user, str(server.bin / "createdb"), "-h", "127.0.0.1", "-p", str(server.port),
                    "-U", server.user, "stumper_fault"], check=True, capture_output=True)
    yield server
    server.stop()


def _environment(postgres: ThrowawayPostgres, tmp_path: Path, conn_max_age: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.test", STUMPER_ENV_FILE="/dev/null",
               SECRET_KEY=secrets.token_urlsafe(50), DATABASE_URL=postgres.url("stumper_fault"),
               CONN_MAX_AGE=str(conn_max_age), STUMPER_VAR_DIR=str(tmp_path / "var"), HF_HUB_OFFLINE="1")
    return env


def _manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _get(url: str, token: str) -> tuple[int, dict]:
    request = urllib.request.Request(url, headers={"Authorization": f"Token {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {}


@pytest.mark.parametrize("conn_max_age", [0, 60])
def test_requests_after_a_database_restart_succeed(postgres, tmp_path, conn_max_age):
    env = _environment(postgres, tmp_path, conn_max_age)
    _manage(env, "migrate", "--noinput", "-v", "0")
    token = _manage(env, "shell", "-c", (
        "from accounts.services import user_create; from rest_framework.authtoken.models import Token; "
        f"u = user_create(username='restart{conn_max_age}', password='a-long-test-password-42'); "
        "print(Token.objects.create(user=u).key)")).strip().splitlines()[-1]
    with web_process(env, tmp_path / "daphne.log") as base:
        # Several requests, so that with CONN_MAX_AGE=60 every worker thread holds a connection.
        before = [_get(f"{base}/api/questions/", token) for _ in range(6)]
        assert all(status == 200 for status, _ in before), before

        postgres.restart()

        after = [_get(f"{base}/api/questions/", token) for _ in range(6)]
        assert [status for status, _ in after] == [200] * 6, (tmp_path / "daphne.log").read_text()[-3000:]
        assert after[-1][1]["count"] == 0
        assert _get(f"{base}/healthz/", token)[0] == 200
