"""Load benchmark: many authenticated authors typing and submitting at once, on PostgreSQL + Redis.

    .venv/bin/python benchmarks/load_authors.py [--authors 50] [--seconds 60] [--web 2]
        [--draft-inference local|worker] [--database-url postgres://postgres@127.0.0.1:5432/postgres] [--redis-url redis://127.0.0.1:6379/9]

Builds a throwaway installation in a new database on the given PostgreSQL server (dropped at the
end) with the production-like local settings: Redis channel layer, cache and Celery broker. It
starts ``--web`` daphne processes (authors are spread over them, as a load balancer would) and
one Celery worker for every queue (``--draft-inference worker``: drafts are scored by that worker,
``STUMPER_INFERENCE_MODE=worker``, as in ``docker/env.example``; ``local``: by the web process
that holds the socket), then every author, for ``--seconds``:

- keeps a websocket open on ``ws/author/<round>/`` and sends a new draft every 150-300 ms
  (the page debounces typing to about that), measuring draft -> prediction latency;
- submits a finished question over the REST API (token auth, a fresh client token) every
  4-8 s, measuring the request's latency.

It prints and writes to benchmarks/out/load_authors-<mode>.json: errors (failed or refused requests,
websocket errors or drops; aim: zero), submissions lost (answered 201 but not in the database,
counted there by client token: must be zero), and latency percentiles. Students sign in through
sessions written directly to the database (no password hashing in the measured part).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import mkdtemp

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.live_feedback import free_port, start_server, stop_server  # noqa: E402

OUT_DIR = ROOT / "benchmarks" / "out"
PROMPTS = ["The chef forgot the bread in the oven, so the toast was", "Maria missed the bus again, so she",
           "The dog heard thunder and", "After the long exam the students"]
CHOICES = ["burnt and black.", "perfectly golden.", "still frozen.", "soft and white."]


def environment(database_url: str, redis_url: str, var_dir: Path, draft_inference: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "STUMPER_BROKER_DIR")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local", STUMPER_ENV_FILE=os.devnull, STUMPER_VAR_DIR=str(var_dir),
        SECRET_KEY=secrets.token_urlsafe(50), DEBUG="false", HF_HUB_OFFLINE="1", LOG_LEVEL="WARNING",
        DATABASE_URL=database_url, REDIS_URL=redis_url, CELERY_TASK_ALWAYS_EAGER="false",
        STUMPER_INFERENCE_MODE=draft_inference,
    )
    os.environ.clear()
    os.environ.update(env)
    return env


def create_database(server_url: str, name: str) -> str:
    import environ
    import psycopg

    db = environ.Env.db_url_config(server_url)
    with psycopg.connect(host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], password=db["PASSWORD"] or None,
                         dbname=db["NAME"] or "postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST']}:{db['PORT'] or 5432}/{name}"


def drop_database(server_url: str, name: str) -> None:
    import environ
    import psycopg

    db = environ.Env.db_url_config(server_url)
    with psycopg.connect(host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], password=db["PASSWORD"] or None,
                         dbname=db["NAME"] or "postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def build(n: int) -> tuple[int, list[tuple[str, str]]]:
    """Migrate; a course, an open round (model v0) and ``n`` students: (session key, API token)."""
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from accounts.services import user_create
    from collector import services

    call_command("migrate", verbosity=0)
    teacher = user_create(username="load-teacher", password="load-pass-123!", role=User.Role.INSTRUCTOR)
    course = services.course_create(owner=teacher, name="Load course")
    round_ = services.round_create(course=course, name="load-round", live_model=services.model_version_default())
    students = []
    for i in range(n):
        student = user_create(username=f"load-student-{i}", password="load-pass-123!")
        services.course_join(user=student, join_code=course.join_code)
        session = SessionStore()
        session.update({SESSION_KEY: str(student.pk), HASH_SESSION_KEY: student.get_session_auth_hash(),
                        BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend"})
        session.create()
        students.append((session.session_key, Token.objects.create(user=student).key))
    return round_.pk, students


@dataclass
class Author:
    index: int
    base: str
    session_key: str
    token: str
    draft_latency: list[float] = field(default_factory=list)
    submit_latency: list[float] = field(default_factory=list)
    accepted_tokens: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    sent: dict[int, float] = field(default_factory=dict)
    # Each simulated author's prompts and pauses come from its own seeded generator (seed = index),
    # so two runs send the same questions at the same rhythm.
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.index)

    def submit(self, round_id: int) -> None:
        """POST one question (blocking; run in a thread)."""
        client_token = str(uuid.uuid4())
        body = json.dumps({"round_id": round_id, "prompt": f"{self.rng.choice(PROMPTS)} (author {self.index})",
                           "choices": CHOICES, "correct_index": self.rng.randrange(4), "client_token": client_token})
        request = urllib.request.Request(f"{self.base}/api/questions/submit/", data=body.encode(), method="POST",
                                         headers={"Authorization": f"Token {self.token}",
                                                  "Content-Type": "application/json"})
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status = response.status
        except urllib.error.HTTPError as error:
            status = error.code
        except OSError as error:
            self.errors.append(f"submit: {type(error).__name__}: {error}")
            return
        self.submit_latency.append(time.perf_counter() - start)
        if status == 201:
            self.accepted_tokens.append(client_token)
        else:
            self.errors.append(f"submit: HTTP {status}")

    async def run(self, round_id: int, seconds: float) -> None:
        from websockets.asyncio.client import connect

        url = self.base.replace("http://", "ws://") + f"/ws/author/{round_id}/"
        try:
            async with connect(url, origin=self.base, additional_headers={"Cookie": f"sessionid={self.session_key}"},
                               compression=None, proxy=None, open_timeout=30) as socket:
                reader = asyncio.ensure_future(self._read(socket))
                await self._type_and_submit(socket, round_id, seconds)
                await asyncio.sleep(3)  # let the last answers arrive
                reader.cancel()
        except Exception as error:  # a refused or dropped socket is an error of the run
            self.errors.append(f"websocket: {type(error).__name__}: {error}")

    async def _type_and_submit(self, socket, round_id: int, seconds: float) -> None:
        end = time.monotonic() + seconds
        next_submit = time.monotonic() + self.rng.uniform(2, 6)
        seq, prompt = 0, self.rng.choice(PROMPTS)
        while time.monotonic() < end:
            seq += 1
            self.sent[seq] = time.perf_counter()
            await socket.send(json.dumps({"type": "draft", "prompt": prompt[: 12 + seq % (len(prompt) - 12)],
                                          "choices": CHOICES, "answer": 0, "seq": seq}))
            if time.monotonic() >= next_submit:
                await asyncio.to_thread(self.submit, round_id)
                next_submit = time.monotonic() + self.rng.uniform(4, 8)
            await asyncio.sleep(self.rng.uniform(0.15, 0.3))

    async def _read(self, socket) -> None:
        async for raw in socket:
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "prediction" and message.get("seq") in self.sent:
                self.draft_latency.append(time.perf_counter() - self.sent[message["seq"]])
            elif kind == "status":
                self.statuses[message["state"]] = self.statuses.get(message["state"], 0) + 1
            elif kind == "error":
                self.errors.append(f"websocket error message: {message.get('message')}")


def percentiles(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"n": 0}
    ms = np.asarray(values) * 1000
    return {"n": len(values), "p50_ms": round(float(np.percentile(ms, 50)), 1),
            "p95_ms": round(float(np.percentile(ms, 95)), 1), "p99_ms": round(float(np.percentile(ms, 99)), 1),
            "max_ms": round(float(ms.max()), 1)}


def count_stored(tokens: list[str]) -> int:
    from collector.models import Question

    stored = 0
    for start in range(0, len(tokens), 500):
        stored += Question.objects.filter(client_token__in=tokens[start:start + 500]).count()
    return stored


async def drive(authors: list[Author], round_id: int, seconds: float) -> None:
    await asyncio.gather(*(author.run(round_id, seconds) for author in authors))


async def warm_up(bases: list[str], round_id: int, session_key: str) -> None:
    """One answered draft per web process, so that model loading is not measured."""
    from websockets.asyncio.client import connect

    for base in bases:
        url = base.replace("http://", "ws://") + f"/ws/author/{round_id}/"
        async with connect(url, origin=base, additional_headers={"Cookie": f"sessionid={session_key}"},
                           proxy=None, open_timeout=60) as socket:
            draft = json.dumps({"type": "draft", "prompt": PROMPTS[0], "choices": CHOICES, "answer": 0})
            await socket.send(draft)
            deadline = time.monotonic() + 180
            while (message := json.loads(await asyncio.wait_for(socket.recv(), timeout=120)))["type"] != "prediction":
                # An inference worker still loading the model answers "unavailable" after the
                # timeout: ask again until it has the model.
                if message["type"] == "status" and message.get("state") == "unavailable" and time.monotonic() < deadline:
                    await socket.send(draft)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--authors", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--web", type=int, default=2, help="daphne processes sharing the Redis channel layer")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/postgres",
                        help="PostgreSQL server (its database is only used to create and drop the throwaway one)")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--draft-inference", choices=("local", "worker"), default="local",
                        help="where drafts are scored: the web process (local) or the Celery worker (worker)")
    args = parser.parse_args()

    name = f"stumper_load_{os.getpid()}"
    var_dir = Path(mkdtemp(prefix="stumper-load-"))
    env = environment(create_database(args.database_url, name), args.redis_url, var_dir, args.draft_inference)
    servers, worker = [], None
    try:
        round_id, students = build(args.authors)
        from collector.inference import predict_examples  # noqa: F401  (imports torch before the clock)

        ports = [free_port() for _ in range(args.web)]
        servers = [start_server(env, port, var_dir / f"web-{i}.log") for i, port in enumerate(ports)]
        worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=threads",
                                   "--concurrency=2", "-Q", "default,training,inference", "-l", "warning"],
                                  cwd=ROOT, env=env, stdout=open(var_dir / "worker.log", "wb"),  # noqa: SIM115
                                  stderr=subprocess.STDOUT)
        asyncio.run(warm_up([f"http://127.0.0.1:{port}" for port in ports], round_id, students[0][0]))
        authors = [Author(i, f"http://127.0.0.1:{ports[i % len(ports)]}", key, token)
                   for i, (key, token) in enumerate(students)]
        print(f"{args.authors} authors on {args.web} web process(es) for {args.seconds:.0f} s, drafts scored "
              f"{'by the worker' if args.draft_inference == 'worker' else 'in the web processes'} ...", flush=True)
        started = time.perf_counter()
        asyncio.run(drive(authors, round_id, args.seconds))
        elapsed = time.perf_counter() - started

        accepted = [token for author in authors for token in author.accepted_tokens]
        stored = count_stored(accepted)
        errors = [error for author in authors for error in author.errors]
        statuses: dict[str, int] = {}
        for author in authors:
            for state, count in author.statuses.items():
                statuses[state] = statuses.get(state, 0) + count
        result = {
            "authors": args.authors, "web_processes": args.web, "draft_inference": args.draft_inference,
            "seconds": round(elapsed, 1),
            "drafts_sent": sum(len(a.sent) for a in authors),
            "drafts_answered": percentiles([x for a in authors for x in a.draft_latency]),
            "submissions_accepted": len(accepted), "submissions_stored": stored,
            "submissions_lost": len(accepted) - stored,
            "submit_latency": percentiles([x for a in authors for x in a.submit_latency]),
            "errors": len(errors), "error_examples": sorted(set(errors))[:10], "statuses": statuses,
        }
        print(json.dumps(result, indent=2))
        OUT_DIR.mkdir(parents=True, exist_ok=True)
        (OUT_DIR / f"load_authors-{args.draft_inference}.json").write_text(json.dumps(result, indent=2) + "\n")
    finally:
        for server in servers:
            stop_server(server)
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)
        from django.db import connections

        connections.close_all()
        drop_database(args.database_url, name)


if __name__ == "__main__":
    main()
