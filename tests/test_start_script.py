"""The README's first command: ``bash scripts/start.sh`` sets up and runs the demo, and Ctrl+C stops it.

The script runs as a developer runs it (the existing .venv, so it installs nothing), against a
temporary var folder, env file and free port, so the developer's ``var/`` and ``.env`` stay as
they are. Once it prints its banner: the health check and the sign-in page answer, a demo user
signs in with the printed password and opens their start page, the Celery worker computes the
demo questions' pending predictions (read from the demo's SQLite database), beat sends its
schedule and the worker runs it. The written .env has DEBUG=false and static files are still
served. A worker killed with SIGKILL is started again (with a line in the terminal) and runs the
next sync. Then SIGINT to the script's process group, as Ctrl+C in a terminal sends it, stops all
three processes and the script.

The script only runs the embedded default (SQLite, folder broker), so this runs in the embedded
pass of scripts/test.sh and is skipped in the PostgreSQL + Redis pass.
"""
import hashlib
import http.cookiejar
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
BANNER_END = "Press Ctrl+C to stop all three."
LOGIN = re.compile(r"^ {4}(\w+) +(stumper-demo-\S+)$", re.MULTILINE)
# bash scripts/start.sh as a terminal starts it: with SIGINT's default action even when this test
# run ignores SIGINT (a background job), since bash cannot trap a signal ignored when it starts.
START = "import os, signal; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp('bash', ['bash', 'scripts/start.sh'])"

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")),
                       reason="start.sh runs the embedded default; the embedded pass runs this test"),
]


def requirements_installed() -> bool:
    """True when .venv holds requirements/runtime.lock as it is (start.sh then installs nothing)."""
    stamp = ROOT / ".venv" / ".runtime.lock.sha256"  # written by scripts/lib.sh's install_requirements
    wanted = hashlib.sha256((ROOT / "requirements" / "runtime.lock").read_bytes()).hexdigest()
    return VENV_PYTHON.exists() and stamp.is_file() and stamp.read_text().strip() == wanted


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fingerprint(path: Path) -> tuple[int, int] | None:
    """Size and modification time of ``path`` (None if absent): what must not change."""
    return (path.stat().st_size, path.stat().st_mtime_ns) if path.exists() else None


class Script:
    """``scripts/start.sh`` in a process group of its own, its output gathered line by line."""

    def __init__(self, env: dict[str, str]) -> None:
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-c", START], cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )
        self.group = self.process.pid
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output:
            assert self.process.poll() is None, f"start.sh exited ({self.process.returncode}):\n{self.output}"
            assert time.monotonic() < deadline, f"no {text!r} after {timeout:.0f} s:\n{self.output}"
            time.sleep(0.5)

    def group_alive(self) -> bool:
        try:
            os.killpg(self.group, 0)
        except ProcessLookupError:
            return False
        return True

    def kill(self) -> None:
        if self.group_alive():
            os.killpg(self.group, signal.SIGKILL)
        self.process.wait(timeout=30)


def wait_until(check, timeout: float, what: str, details) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what} within {timeout:.0f} s:\n{details()}"
        time.sleep(1)


def sign_in(base: str, username: str, password: str) -> tuple[str, str]:
    """Sign in through the form as a browser does; (URL of the start page, its HTML)."""
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    form = browser.open(base + "/accounts/login/", timeout=30).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "username": username, "password": password})
    page = browser.open(base + "/accounts/login/", data=data.encode(), timeout=60)
    return page.geturl(), page.read().decode()


def predictions(database: Path) -> dict[str, int]:
    """How many of the demo questions' predictions are in each status."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10) as connection:
        return dict(connection.execute("SELECT status, COUNT(*) FROM collector_prediction GROUP BY status"))


def worker_pid(group: int) -> int | None:
    """The pid of the Celery worker start.sh runs in process group ``group`` (None while there is none)."""
    for entry in Path("/proc").iterdir():
        try:
            if not entry.name.isdigit() or os.getpgid(int(entry.name)) != group:
                continue
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, ProcessLookupError):
            continue  # gone meanwhile
        if any(arg.endswith(b"celery") for arg in args) and b"worker" in args:
            return int(entry.name)
    return None


@pytest.mark.skipif(not requirements_installed(), reason="start.sh would install requirements/runtime.lock into .venv first")
def test_start_script_runs_the_demo_and_ctrl_c_stops_it(tmp_path):
    var, env_file, port = tmp_path / "var", tmp_path / "stumper.env", free_port()
    developer_files = {path: fingerprint(path) for path in (ROOT / ".env", ROOT / "var" / "stumper.sqlite3")}
    env = {name: value for name, value in os.environ.items()
           if name not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}}
    # The roster sync every second instead of every 6 hours, so beat sends it while the test looks. No CODAH
    # source: the starter job ends at once ("not trained: no CODAH data"), not a MiniLM fine-tune in the worker.
    env.update(PORT=str(port), STUMPER_VAR_DIR=str(var), STUMPER_ENV_FILE=str(env_file),
               STUMPER_LTI_ROSTER_SYNC_SECONDS="1", STUMPER_STARTER_CODAH="")
    script = Script(env)
    logs = var / "log"

    def details() -> str:
        parts = [script.output] + [f"--- {log.name}\n{log.read_text()[-3000:]}" for log in sorted(logs.glob("*.log"))]
        return "\n".join(parts)

    try:
        script.wait_for(BANNER_END, timeout=150)
        base = f"http://127.0.0.1:{port}"
        assert f"Stumper is running at   {base}/" in script.output
        logins = dict(LOGIN.findall(script.output))
        assert set(logins) == {"instructor", "alice", "bob", "mina", "sam"}, script.output
        assert "SECRET_KEY=" in env_file.read_text()

        health = urllib.request.urlopen(base + "/healthz/", timeout=30)
        assert health.status == 200 and json.load(health) == {"status": "ok"}
        sign_in_page = urllib.request.urlopen(base + "/accounts/login/", timeout=30).read().decode()
        assert "<h1>Sign in</h1>" in sign_in_page and 'name="password"' in sign_in_page
        start_url, start_page = sign_in(base, "instructor", logins["instructor"])
        assert start_url == base + "/inbox/" and "<h1>Inbox</h1>" in start_page, start_url

        database = var / "stumper.sqlite3"
        wait_until(lambda: set(predictions(database)) == {"done"}, 90,
                   "the worker did not compute the demo's predictions", lambda: f"{predictions(database)}\n{details()}")
        wait_until(lambda: "Sending due task lti-roster-sync" in (logs / "beat.log").read_text(), 30,
                   "beat did not send the roster sync", details)
        wait_until(lambda: re.search(r"Task lti\.roster_sync_all\[\S+\] succeeded", (logs / "worker.log").read_text()),
                   30, "the worker did not run beat's roster sync", details)

        # DEBUG=false in the written .env, and the site still serves its static files (whitenoise)
        # and a friendly page for an address that does not exist.
        assert re.search(r"^DEBUG=false$", env_file.read_text(), re.MULTILINE), env_file.read_text()
        css = urllib.request.urlopen(base + "/static/css/stumper.css", timeout=30)
        assert css.status == 200 and b"{" in css.read()
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(base + "/no-such-page/", timeout=30)
        assert missing.value.code == 404 and "<h1>Page not found</h1>" in missing.value.read().decode()

        # Losing the worker does not stop the site: start.sh says so and starts it again, and the
        # new worker runs beat's next roster sync.
        worker = worker_pid(script.group)
        syncs = len(re.findall(r"Task lti\.roster_sync_all\[\S+\] succeeded", (logs / "worker.log").read_text()))
        os.kill(worker, signal.SIGKILL)
        script.wait_for("==> worker exited (code 137); restarting", timeout=30)
        wait_until(lambda: worker_pid(script.group) not in (None, worker), 30, "no new worker process", details)
        wait_until(lambda: len(re.findall(r"Task lti\.roster_sync_all\[\S+\] succeeded",
                                          (logs / "worker.log").read_text())) > syncs + 1,
                   90, "the restarted worker did not run the roster sync", details)
        assert urllib.request.urlopen(base + "/healthz/", timeout=30).status == 200

        os.killpg(script.group, signal.SIGINT)  # what Ctrl+C in a terminal does
        assert script.process.wait(timeout=60) == 130, details()
        wait_until(lambda: not script.group_alive(), 10, "a process of start.sh is still running", details)
        assert "==> Stopped" in script.output and "stopped; last lines" not in script.output, script.output
    finally:
        script.kill()
    assert {path: fingerprint(path) for path in developer_files} == developer_files
