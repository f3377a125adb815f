"""The PostgreSQL connection pool (config/database.py): connections stay bounded whatever the load.

The settings rule is checked on its own; then a PostgreSQL cluster of our own that accepts only
12 connections serves a real daphne process whose pool holds at most 3, while 48 clients ask at
once. Every request must succeed and the web process must never hold more than its pool's size,
counted by the server itself (``pg_stat_activity``) and shown in the operator's metrics. A second test restarts the server under the
pool: the pool's health check replaces the dead connections (issue 28 §5).
"""
import os
import shutil
import subprocess
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from django.core.exceptions import ImproperlyConfigured
from prometheus_client.parser import text_string_to_metric_families

from config.database import pooled
from tests.faults import ThrowawayPostgres, postgres_binaries, web_process
from tests.test_faults_db_restart import _environment, _get, _manage

POSTGRES = {"ENGINE": "django.db.backends.postgresql", "NAME": "stumper", "CONN_MAX_AGE": 0, "OPTIONS": {}}
SQLITE = {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3", "CONN_MAX_AGE": 0}
POOL_SIZE = 3
METRICS_TOKEN = "pool-test-scraper"


def test_pool_options_for_postgresql():
    database = pooled(POSTGRES, max_size=12, min_size=1, timeout=10.0)
    assert database["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 12, "timeout": 10.0}
    assert POSTGRES["OPTIONS"] == {}, "the settings entry it was given is left as it was"


@pytest.mark.parametrize("database, max_size", [(SQLITE, 12), (POSTGRES, 0)])
def test_no_pool_for_sqlite_or_size_zero(database, max_size):
    assert pooled(database, max_size=max_size, min_size=1, timeout=10.0) is database


@pytest.mark.parametrize("changes, message", [
    ({"CONN_MAX_AGE": 60}, "CONN_MAX_AGE must be 0"),
    ({"min_size": 5}, "DB_POOL_MIN_SIZE"),
    ({"timeout": 0.0}, "DB_POOL_TIMEOUT"),
])
def test_contradictory_pool_settings_are_refused_with_the_fix(changes, message):
    database = {**POSTGRES, "CONN_MAX_AGE": changes.pop("CONN_MAX_AGE", 0)}
    arguments = {"max_size": 4, "min_size": 1, "timeout": 10.0, **changes}
    with pytest.raises(ImproperlyConfigured, match=message):
        pooled(database, **arguments)


needs_server = pytest.mark.skipif(
    postgres_binaries() is None or (os.geteuid() == 0 and shutil.which("runuser") is None),
    reason="PostgreSQL server binaries (initdb, pg_ctl) are not installed",
)


@pytest.fixture(scope="module")
def small_postgres():
    server = ThrowawayPostgres(postgres_binaries(), settings="-c max_connections=12 -c superuser_reserved_connections=0")
    server.init()
    server.start()
    subprocess.run([*server.as_user, str(server.bin / "createdb"), "-h", "127.0.0.1", "-p", str(server.port),
                    "-U", server.user, "stumper_fault"], check=True, capture_output=True)
    yield server
    server.stop()


def _pooled_environment(server: ThrowawayPostgres, tmp_path: Path) -> dict[str, str]:
    env = _environment(server, tmp_path, conn_max_age=0)
    env.update(DB_POOL_MAX_SIZE=str(POOL_SIZE), DB_POOL_MIN_SIZE="1", DB_POOL_TIMEOUT="20",
               STUMPER_METRICS_TOKEN=METRICS_TOKEN)
    return env


def _token(env: dict[str, str], username: str) -> str:
    _manage(env, "migrate", "--noinput", "-v", "0")
    return _manage(env, "shell", "-c", (
        "from accounts.services import user_create; from rest_framework.authtoken.models import Token; "
        f"u = user_create(username='{username}', password='a-long-test-password-42'); "
        "print(Token.objects.create(user=u).key)")).strip().splitlines()[-1]


class ConnectionCounter:
    """The most connections to the app's database seen at once, sampled from the server's own view."""

    def __init__(self, server: ThrowawayPostgres) -> None:
        self.url = server.url("postgres")
        self.peak = 0
        self.samples = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        with psycopg.connect(self.url, autocommit=True) as connection:
            while not self.stopping.is_set():
                count = connection.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = 'stumper_fault'").fetchone()[0]
                self.peak = max(self.peak, count)
                self.samples += 1
                time.sleep(0.01)

    def __enter__(self) -> "ConnectionCounter":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)


@needs_server
def test_a_burst_of_clients_shares_a_bounded_pool(small_postgres, tmp_path):
    env = _pooled_environment(small_postgres, tmp_path)
    token = _token(env, "burst")
    with web_process(env, tmp_path / "daphne.log") as base:
        assert _get(f"{base}/api/questions/", token)[0] == 200
        with ConnectionCounter(small_postgres) as counter, ThreadPoolExecutor(max_workers=48) as clients:
            statuses = list(clients.map(lambda _: _get(f"{base}/api/questions/", token)[0], range(240)))
        request = urllib.request.Request(f"{base}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            pool = {sample.labels["kind"]: sample.value
                    for family in text_string_to_metric_families(response.read().decode())
                    if family.name == "stumper_db_pool_connections" for sample in family.samples}
    log = (tmp_path / "daphne.log").read_text()
    assert statuses == [200] * 240, log[-3000:]
    assert "too many clients" not in log
    assert counter.samples > 10
    assert 1 <= counter.peak <= POOL_SIZE, f"{counter.peak} connections at once with a pool of {POOL_SIZE}"
    assert pool["max"] == POOL_SIZE, "the operator's metrics show the pool"
    assert 1 <= pool["open"] <= POOL_SIZE
    assert 0 <= pool["in_use"] <= pool["open"]


@needs_server
def test_the_pool_replaces_connections_a_database_restart_killed(small_postgres, tmp_path):
    env = _pooled_environment(small_postgres, tmp_path)
    token = _token(env, "restart_pool")
    with web_process(env, tmp_path / "daphne.log") as base:
        before = [_get(f"{base}/api/questions/", token)[0] for _ in range(6)]
        small_postgres.restart()
        after = [_get(f"{base}/api/questions/", token)[0] for _ in range(6)]
    assert before == [200] * 6
    assert after == [200] * 6, (tmp_path / "daphne.log").read_text()[-3000:]
