"""Start a real Celery worker process against the test database, for cross-process tests."""
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def database_url_of_test_db() -> str:
    """A DATABASE_URL for another process that points at the database this test uses."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def worker_environment() -> dict[str, str]:
    environment = dict(os.environ)
    environment.update(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        DATABASE_URL=database_url_of_test_db(),
        CELERY_TASK_ALWAYS_EAGER="false",
        HF_HUB_OFFLINE="1",
    )
    folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("data_folder_in")
    if settings.CELERY_BROKER_URL.startswith("filesystem://") and folder:
        environment["STUMPER_BROKER_DIR"] = str(Path(folder).parent)
    return environment


@contextmanager
def celery_worker(log_path: Path, queues: str | None = None, environment: dict[str, str] | None = None
                  ) -> Iterator[subprocess.Popen]:
    """A `celery worker` subprocess (every queue unless told); stopped (killed if needed) when the block ends.

    ``environment`` adds to or overrides the worker's environment (e.g. another broker).
    """
    queues = queues or ",".join(settings.STUMPER_CELERY_QUEUES)
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-l", "info",
        "-Q", queues, "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]
    with open(log_path, "wb") as log:
        env = {**worker_environment(), **(environment or {})}
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            yield process
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_for(condition, *, timeout: float, interval: float = 0.25, log_path: Path | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(interval)
    log = log_path.read_text(errors="replace")[-4000:] if log_path and log_path.exists() else ""
    raise AssertionError(f"condition not met within {timeout} s\n--- worker log ---\n{log}")
