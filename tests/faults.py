"""Helpers of the fault tests: throwaway Redis and PostgreSQL servers of our own, on free ports.

The shared servers of the machine are never stopped; a fault test starts its own server, points
the app at it and stops or restarts that one.
"""
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import kombu.pools
from celery import current_app


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_port(port: int, *, up: bool, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if (sock.connect_ex(("127.0.0.1", port)) == 0) == up:
                return
        time.sleep(0.1)
    raise AssertionError(f"port {port} did not go {'up' if up else 'down'} within {timeout} s")


class ThrowawayRedis:
    """A redis-server of our own that a test can stop and start again on the same port."""

    def __init__(self) -> None:
        self.binary = shutil.which("redis-server")
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        _wait_port(self.port, up=True)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        _wait_port(self.port, up=False)


def reset_celery_pools() -> None:
    """Forget this process's broker connection and producer pools: the app's and kombu's global ones.

    Closing the app's pool closes kombu's shared pool for that broker URL, which kombu keeps handing
    out (closed) to the next producer for the same URL ("Acquire on closed pool", even for an eager
    task, which takes a producer too); ``kombu.pools.reset`` drops them all, so the next use makes new.
    """
    if current_app._pool is not None:
        current_app._pool.force_close_all()
    current_app._pool = None
    current_app.amqp._producer_pool = None
    kombu.pools.reset()


@contextlib.contextmanager
def celery_broker(url: str) -> Iterator[None]:
    """Send this process's tasks to ``url`` (not eagerly) for the block, as the web process does."""
    conf = current_app.conf
    saved = (conf.broker_url, conf.task_always_eager, conf.broker_transport_options)
    reset_pools = reset_celery_pools
    conf.broker_url, conf.task_always_eager = url, False
    # Fail fast while the broker is down instead of retrying for a minute.
    conf.broker_transport_options = {"max_retries": 0}
    conf.broker_connection_retry = False
    conf.task_publish_retry = False
    reset_pools()
    try:
        yield
    finally:
        conf.broker_url, conf.task_always_eager, conf.broker_transport_options = saved
        reset_pools()


def postgres_binaries() -> Path | None:
    """The folder of initdb/pg_ctl from Debian's PostgreSQL packages, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


class ThrowawayPostgres:
    """A PostgreSQL cluster of our own in a temporary folder (initdb + pg_ctl), trust auth."""

    def __init__(self, binaries: Path, *, settings: str = "") -> None:
        self.bin = binaries
        self.settings = settings  # extra server settings, e.g. "-c max_connections=12"
        self.dir = Path(tempfile.mkdtemp(prefix="stumper-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.user = "postgres"
        # initdb refuses to run as root; the cluster then belongs to the postgres system user.
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, capture_output=True, timeout=120)

    def init(self) -> None:
        if self.as_user:
            shutil.chown(self.dir, "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", self.user, "--auth=trust", "-E", "UTF8")

    def _ctl(self, action: str) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off {self.settings}"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"), "-w",
                  "-m", "fast", action)

    def start(self) -> None:
        self._ctl("start")

    def restart(self) -> None:
        self._ctl("restart")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._ctl("stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgres://{self.user}@127.0.0.1:{self.port}/{database}"


ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def web_process(env: dict[str, str], log_path: Path) -> Iterator[str]:
    """A daphne process serving the app with ``env`` on a free port; yields its base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with open(log_path, "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                    "config.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline and process.poll() is None:
                try:
                    urllib.request.urlopen(f"{base}/healthz/", timeout=2)
                    break
                except urllib.error.HTTPError:
                    break  # answering, even if with an error
                except OSError:
                    time.sleep(0.3)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=20)
