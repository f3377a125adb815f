"""Processes and databases the end-to-end benchmarks start and clean up: web servers, workers, PostgreSQL.

Shared by ``classroom.py`` and ``live_feedback.py`` (scripts import it as a sibling module).
"""
from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def log(message: str) -> None:
    """Progress goes to stderr, so ``--json`` output on stdout stays one document."""
    print(message, file=sys.stderr, flush=True)


def free_port() -> int:
    """A TCP port nothing listens on right now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_process(command: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    """Start ``command`` in the repository root, stdout and stderr into ``log_path``."""
    output = open(log_path, "wb")  # noqa: SIM115 - the child holds it; closed when it exits
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT)


def stop_process(process: subprocess.Popen[Any], timeout: float = 30) -> None:
    """SIGTERM, then SIGKILL if it has not exited within ``timeout`` seconds."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wait_until_serving(url: str, *, timeout: float = 120, process: subprocess.Popen[Any] | None = None,
                       log_path: Path | None = None) -> None:
    """Return once ``url`` answers with any HTTP status; raise with the log's tail if it never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}:\n{_tail(log_path)}")
        try:
            urllib.request.urlopen(url, timeout=5)
            return
        except urllib.error.HTTPError:
            return  # any HTTP status means it is serving
        except OSError:
            time.sleep(0.3)
    if process is not None:
        process.kill()
    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s:\n{_tail(log_path)}")


def _tail(log_path: Path | None) -> str:
    return log_path.read_text(errors="replace")[-3000:] if log_path is not None and log_path.exists() else ""


def _pg(server_url: str) -> tuple[dict[str, Any], Any]:
    import environ
    import psycopg

    db = environ.Env.db_url_config(server_url)
    connection = psycopg.connect(host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"],
                                 password=db["PASSWORD"] or None, dbname=db["NAME"] or "postgres", autocommit=True)
    return db, connection


def create_database(server_url: str, name: str) -> str:
    """A fresh, empty PostgreSQL database ``name`` on the server of ``server_url``; returns its URL."""
    db, connection = _pg(server_url)
    with connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST']}:{db['PORT'] or 5432}/{name}"


def drop_database(server_url: str, name: str) -> None:
    """Drop ``name``, disconnecting whoever still uses it."""
    _, connection = _pg(server_url)
    with connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
