"""A database made by an earlier release, with its demo data, migrates forward and serves every page.

The release is main as it stood when the house plan (issue 15) began: before ``core/``,
``courses/`` and ``modelhub/`` existed and Course, Enrollment and ModelVersion moved out of
``collector``. Its code comes from git history (``git archive``) and runs with this checkout's
environment: it migrates a fresh database and seeds its demo (``seed_demo``). Then this checkout
migrates the same database, seeds again (``seed_demo`` is idempotent, so it must cope with the old
rows) and every demo user crawls every page reachable by links from their start page
(``tests/upgrade_crawl.py``); any answer of 400 or more fails the test, with the list.

SQLite in the embedded pass; in the PostgreSQL pass, a PostgreSQL database of its own (created and
dropped here).
"""
from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

import pytest

from tests.worker import ROOT

#: main when issue 15 began (stop 19 landed; "README: ... bf16 ..." was its last product change).
RELEASE = "f7ebe6a24a8f63b8c2bc41708ddaa5e0dae87665"
DEMO_USERS = ("instructor", "alice", "bob", "mina", "sam")


def release_tree(destination: Path) -> Path:
    """The release's files (git archive), or a skip when this clone has no such history."""
    try:
        archive = subprocess.run(["git", "archive", "--format=tar", RELEASE], cwd=ROOT, capture_output=True,
                                 check=True, timeout=120).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"git history with {RELEASE[:7]} is needed (a shallow clone has none): {error}")
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(destination, filter="data")
    return destination


def database_for(tmp_path: Path):
    """(DATABASE_URL, cleanup): SQLite in the embedded pass, a fresh PostgreSQL database in the other."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        return f"sqlite:///{tmp_path / 'upgrade.sqlite3'}", lambda: None
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from servers import create_database, drop_database

    server, name = url.rsplit("/", 1)[0] + "/postgres", f"stumper_upgrade_{os.getpid()}"  # the maintenance db
    return create_database(server, name), lambda: drop_database(server, name)


def run(code_dir: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, *args], cwd=code_dir, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{' '.join(args)} in {code_dir} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def test_release_database_with_demo_data_migrates_and_serves_every_page(tmp_path: Path) -> None:
    old = release_tree(tmp_path / "release")
    database_url, cleanup = database_for(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL", "STUMPER_BROKER_DIR")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.local", STUMPER_ENV_FILE=os.devnull,
               STUMPER_VAR_DIR=str(tmp_path / "var"), SECRET_KEY=secrets.token_urlsafe(50), DEBUG="false",
               HF_HUB_OFFLINE="1", LOG_LEVEL="WARNING", STUMPER_PRELOAD_MODELS="false", DATABASE_URL=database_url,
               ALLOWED_HOSTS="testserver,localhost")
    try:
        run(old, env, "manage.py", "migrate", "--noinput")
        seeded = run(old, env, "manage.py", "seed_demo")
        assert "Demo logins" in seeded
        run(ROOT, env, "manage.py", "migrate", "--noinput")
        run(ROOT, env, "manage.py", "seed_demo")
        crawled = json.loads(run(ROOT, env, "tests/upgrade_crawl.py", *DEMO_USERS))
    finally:
        cleanup()
    for user in DEMO_USERS:
        assert crawled[user]["pages"] >= 3, (user, crawled[user])  # the start page links somewhere
    failures = {user: result["failures"] for user, result in crawled.items() if result["failures"]}
    assert not failures, json.dumps(failures, indent=1)
