"""Classroom benchmark: a class signs in and writes questions at once, as the authoring page does.

    .venv/bin/python benchmarks/classroom.py [--authors 50] [--seconds 120] [--web 2] [--modes local,worker]
        [--database-url postgres://postgres@127.0.0.1:5432/postgres] [--redis-url redis://127.0.0.1:6379/9]
        [--quick] [--out PATH] [--json]

For each mode (``STUMPER_INFERENCE_MODE``): a throwaway database on the PostgreSQL server (dropped
at the end), ``--web`` daphne processes and one Celery worker (every queue), all with Redis, the
production-like local settings and the default live model v0. Then every author, as separate
clients over TCP:

- signs in through the form (GET the page, POST username, password and CSRF token), all at once;
- opens the author websocket with the session cookie and types questions like a typist: keystroke
  gaps of 50-600 ms, thinking pauses of 1-3 s between some words and between fields, an answer
  marked, a revision or two, then the form POST of the question (a fresh client token each; a
  question begun within ``--seconds`` is finished and submitted);
- follows the page's rules (``static/js/author.js``): a draft 250 ms after the last keystroke, only
  when the prompt and all four completions are filled, never one identical to the draft in flight
  or to the last answered one.

A pause of >= 1 s with a complete draft on screen counts as answered when the prediction for exactly
that text (and marked answer) arrived before the author typed again; its latency is pause start
(the last keystroke) -> that prediction. Submissions answered 302 are looked up by client token.

Output (stdout with ``--json``: this one document; else a table; always written to
``benchmarks/out/classroom.json`` or ``--out``), stable keys::

    {"authors", "seconds", "web_processes", "quick",
     "modes": {"local" | "worker": {
        "pauses_answered_share", "pause_p50_ms", "pause_p95_ms", "pauses",
        "drafts_sent", "drafts_answered", "drafts_superseded", "statuses",
        "submissions_accepted", "submissions_stored", "lost", "errors", "error_examples",
        "sign_in_p50_ms", "sign_in_p95_ms", "cold_start_s"}}}

Aims (issue 14, 50 authors, 2 web processes, this 2-core machine): pauses answered >= 95%, pause
p95 < 1 s, 0 errors, 0 lost. Progress and logs go to stderr.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import socket
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import mkdtemp

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT_FILE = ROOT / "benchmarks" / "out" / "classroom.json"
PASSWORD = "classroom-pass-123!"
DEBOUNCE = 0.25  # author.js DEBOUNCE_MS
PAUSE = 1.0  # a pause this long is one the author expects to see the model's answer in
WORDS = ("the", "a", "dog", "cat", "chef", "rain", "bread", "oven", "teacher", "bus", "storm", "garden", "was",
         "found", "ran", "forgot", "quickly", "never", "because", "after", "his", "her", "cold", "warm", "late",
         "early", "happy", "tired", "window", "door", "cake", "river", "friend", "city", "book", "lamp")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# ---- installation --------------------------------------------------------------------------------

def _pg(server_url: str):
    import environ
    import psycopg

    db = environ.Env.db_url_config(server_url)
    connection = psycopg.connect(host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"],
                                 password=db["PASSWORD"] or None, dbname=db["NAME"] or "postgres", autocommit=True)
    return db, connection


def create_database(server_url: str, name: str) -> str:
    db, connection = _pg(server_url)
    with connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST']}:{db['PORT'] or 5432}/{name}"


def drop_database(server_url: str, name: str) -> None:
    _, connection = _pg(server_url)
    with connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def environment(database_url: str, redis_url: str, var_dir: Path, mode: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "STUMPER_BROKER_DIR")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.local", STUMPER_ENV_FILE=os.devnull,
               STUMPER_VAR_DIR=str(var_dir), SECRET_KEY=secrets.token_urlsafe(50), DEBUG="false", HF_HUB_OFFLINE="1",
               LOG_LEVEL="WARNING", DATABASE_URL=database_url, REDIS_URL=redis_url, CELERY_TASK_ALWAYS_EAGER="false",
               STUMPER_INFERENCE_MODE=mode, STUMPER_PRELOAD_MODELS="true")
    return env


def build(env: dict[str, str], n: int) -> int:
    """Migrate; a course, an open round (model v0) and ``n`` students with passwords. Returns the round id."""
    code = (
        "import django, sys; django.setup(); from django.core.management import call_command;"
        "from accounts.models import User; from accounts.services import user_create; from collector import services;"
        "call_command('migrate', verbosity=0);"
        "t = user_create(username='teacher', password=sys.argv[2], role=User.Role.INSTRUCTOR);"
        "c = services.course_create(owner=t, name='Classroom');"
        "r = services.round_create(course=c, name='classroom', live_model=services.model_version_default());"
        "[services.course_join(user=user_create(username=f'student-{i}', password=sys.argv[2]), join_code=c.join_code)"
        " for i in range(int(sys.argv[1]))]; print(r.pk)"
    )
    result = subprocess.run([sys.executable, "-c", code, str(n), PASSWORD], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=900, check=True)
    return int(result.stdout.strip().splitlines()[-1])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(command: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen:
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=open(log_path, "wb"),
                            stderr=subprocess.STDOUT)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# ---- one author ----------------------------------------------------------------------------------

@dataclass
class Pause:
    start: float
    end: float
    key: str


@dataclass
class Author:
    index: int
    base: str
    round_id: int
    session: object = None
    sign_in_seconds: float | None = None
    errors: list[str] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    sent: dict[int, str] = field(default_factory=dict)  # seq -> draft key
    answers: list[tuple[float, str]] = field(default_factory=list)  # (arrival, draft key)
    pauses: list[Pause] = field(default_factory=list)
    accepted: list[str] = field(default_factory=list)

    def sign_in(self) -> None:
        """GET the form, POST it (blocking; run in a thread)."""
        import requests

        self.session = requests.Session()
        start = time.perf_counter()
        try:
            page = self.session.get(f"{self.base}/accounts/login/", timeout=60)
            response = self.session.post(f"{self.base}/accounts/login/", allow_redirects=False, timeout=60, data={
                "username": f"student-{self.index}", "password": PASSWORD,
                "csrfmiddlewaretoken": self.session.cookies.get("csrftoken", "")},
                headers={"Referer": page.url})
        except OSError as error:
            self.errors.append(f"sign-in: {type(error).__name__}")
            return
        if response.status_code != 302:
            self.errors.append(f"sign-in: HTTP {response.status_code}")
            return
        self.sign_in_seconds = time.perf_counter() - start

    def submit(self, fields: dict) -> None:
        """The form POST of the page (blocking; run in a thread)."""
        url = f"{self.base}/rounds/{self.round_id}/write/"
        token = str(uuid.uuid4())
        data = {**fields, "client_token": token, "time_spent_seconds": "60",
                "csrfmiddlewaretoken": self.session.cookies.get("csrftoken", "")}
        try:
            response = self.session.post(url, data=data, allow_redirects=False, timeout=60, headers={"Referer": url})
        except OSError as error:
            self.errors.append(f"submit: {type(error).__name__}")
            return
        if response.status_code == 302:
            self.accepted.append(token)
        else:
            self.errors.append(f"submit: HTTP {response.status_code}")


class Page:
    """The authoring page's client state and send rules (static/js/author.js)."""

    def __init__(self, author: Author, socket, loop: asyncio.AbstractEventLoop) -> None:
        self.author, self.socket, self.loop = author, socket, loop
        self.fields = {"prompt": "", "choice_0": "", "choice_1": "", "choice_2": "", "choice_3": ""}
        self.answer: int | None = None
        self.seq = 0
        self.in_flight: tuple[int, str] | None = None
        self.last_answered: str | None = None
        self.timer: asyncio.TimerHandle | None = None

    def key(self) -> str | None:
        values = [self.fields[name].strip() for name in self.fields]
        return json.dumps([values, self.answer]) if all(values) else None

    def keystroke(self) -> float:
        if self.timer is not None:
            self.timer.cancel()
        self.timer = self.loop.call_later(DEBOUNCE, lambda: asyncio.ensure_future(self.send()))
        return time.perf_counter()

    async def send(self) -> None:
        key = self.key()
        if key is None or key == self.last_answered or (self.in_flight and self.in_flight[1] == key):
            return
        self.seq += 1
        self.in_flight = (self.seq, key)
        self.author.sent[self.seq] = key
        values = [self.fields[name].strip() for name in self.fields]
        await self.socket.send(json.dumps({"type": "draft", "prompt": values[0], "choices": values[1:],
                                           "answer": self.answer, "seq": self.seq}))

    async def read(self) -> None:
        async for raw in self.socket:
            message = json.loads(raw)
            kind, seq = message.get("type"), message.get("seq")
            if kind == "prediction":
                key = self.author.sent.get(seq)
                self.author.answers.append((time.perf_counter(), key))
                self.last_answered = key
                if self.in_flight and self.in_flight[0] == seq:
                    self.in_flight = None
            elif kind == "status":
                self.author.statuses[message["state"]] = self.author.statuses.get(message["state"], 0) + 1
                if message["state"] != "loading" and self.in_flight and self.in_flight[0] == seq:
                    self.in_flight = None
            elif kind == "error":
                self.author.errors.append(f"websocket error: {message.get('message')}")


async def pause(page: Page, last: float, seconds: float) -> None:
    key = page.key()
    await asyncio.sleep(seconds)
    if key is not None and seconds >= PAUSE:
        page.author.pauses.append(Pause(start=last, end=time.perf_counter(), key=key))


async def type_text(page: Page, name: str, text: str, rng: random.Random) -> float:
    last = time.perf_counter()
    for i, char in enumerate(text):
        await asyncio.sleep(min(0.6, max(0.05, rng.lognormvariate(np.log(0.16), 0.35))))
        page.fields[name] += char
        last = page.keystroke()
        if char == " " and rng.random() < 0.12 and i < len(text) - 1:
            await pause(page, last, rng.uniform(1.0, 3.0))  # looking for the next word
    return last


async def write_questions(author: Author, page: Page, until: float, rng: random.Random) -> None:
    loop = asyncio.get_running_loop()
    while time.perf_counter() < until:
        words = lambda lo, hi: " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))  # noqa: E731
        for name in page.fields:
            page.fields[name] = ""
        page.answer = None
        last = await type_text(page, "prompt", f"{words(7, 11)} {author.index}", rng)
        for position in range(4):
            await pause(page, last, rng.uniform(1.0, 2.5))
            last = await type_text(page, f"choice_{position}", words(3, 5) + ".", rng)
        await pause(page, last, rng.uniform(1.0, 2.5))
        page.answer = rng.randrange(4)
        last = page.keystroke()
        await pause(page, last, rng.uniform(1.5, 3.0))
        for _ in range(rng.randint(1, 2)):  # revise a completion to fool the model
            last = await type_text(page, f"choice_{rng.randrange(4)}", f" {rng.choice(WORDS)}", rng)
            await pause(page, last, rng.uniform(1.2, 3.0))
        # A question started before the end is finished and submitted, as a student would.
        fields = {**page.fields, "answer": str(page.answer), "categories": "other"}
        await loop.run_in_executor(None, author.submit, fields)
        await asyncio.sleep(rng.uniform(0.5, 1.5))


async def run_author(author: Author, seconds: float, seed: int) -> None:
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    cookie = "; ".join(f"{c.name}={c.value}" for c in author.session.cookies)
    url = author.base.replace("http://", "ws://") + f"/ws/author/{author.round_id}/"
    try:
        async with connect(url, origin=author.base, additional_headers={"Cookie": cookie}, proxy=None,
                           open_timeout=60, compression=None) as ws:
            page = Page(author, ws, asyncio.get_running_loop())
            reader = asyncio.ensure_future(page.read())
            await write_questions(author, page, time.perf_counter() + seconds, rng)
            await asyncio.sleep(3)  # the last answers
            reader.cancel()
    except Exception as error:  # a refused or dropped socket is an error of the run
        author.errors.append(f"websocket: {type(error).__name__}: {error}")


# ---- one mode --------------------------------------------------------------------------------------

async def warm_up(bases: list[str], session, round_id: int, deadline: float) -> None:
    """One answered draft per web process (the preload runs on the first request)."""
    from websockets.asyncio.client import connect

    cookie = "; ".join(f"{c.name}={c.value}" for c in session.cookies)
    draft = json.dumps({"type": "draft", "prompt": "The dog heard thunder and", "answer": None,
                        "choices": ["hid.", "sang.", "flew.", "ate."]})
    for base in bases:
        async with connect(base.replace("http://", "ws://") + f"/ws/author/{round_id}/", origin=base, proxy=None,
                           additional_headers={"Cookie": cookie}, open_timeout=60) as ws:
            await ws.send(draft)
            while json.loads(await asyncio.wait_for(ws.recv(), timeout=200))["type"] != "prediction":
                if time.perf_counter() > deadline:
                    raise RuntimeError(f"{base} gave no prediction within the warm-up")
                await ws.send(draft)
                await asyncio.sleep(1)


def pause_results(authors: list[Author]) -> dict:
    latencies, answered, total = [], 0, 0
    for author in authors:
        for pause_ in author.pauses:
            total += 1
            seen = [t for t, key in author.answers if key == pause_.key and t <= pause_.end]
            if seen:
                answered += 1
                latencies.append(max(0.0, min(seen) - pause_.start))  # 0: that text was answered before
    ms = np.asarray(latencies) * 1000
    return {"pauses": total, "pauses_answered_share": round(answered / total, 4) if total else None,
            "pause_p50_ms": round(float(np.percentile(ms, 50)), 1) if len(ms) else None,
            "pause_p95_ms": round(float(np.percentile(ms, 95)), 1) if len(ms) else None}


def count_stored(env: dict[str, str], tokens: list[str]) -> int:
    code = ("import django, json, sys; django.setup(); from collector.models import Question;"
            "print(Question.objects.filter(client_token__in=json.load(sys.stdin)).count())")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, input=json.dumps(tokens),
                            capture_output=True, text=True, timeout=300, check=True)
    return int(result.stdout.strip().splitlines()[-1])


def run_mode(mode: str, args: argparse.Namespace) -> dict:
    name = f"stumper_classroom_{mode}_{os.getpid()}"
    var_dir = Path(mkdtemp(prefix=f"stumper-classroom-{mode}-"))
    env = environment(create_database(args.database_url, name), args.redis_url, var_dir, mode)
    processes = []
    try:
        log(f"[{mode}] building {args.authors} students ...")
        round_id = build(env, args.authors)
        spawned = time.perf_counter()
        ports = [free_port() for _ in range(args.web)]
        processes += [start([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                             "config.asgi:application"], env, var_dir / f"web-{i}.log") for i, port in enumerate(ports)]
        processes.append(start([sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=threads",
                                "--concurrency=2", "-Q", "default,training,inference", "-l", "warning"], env,
                               var_dir / "worker.log"))
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        authors = [Author(i, bases[i % len(bases)], round_id) for i in range(args.authors)]
        _wait_up(bases)
        log(f"[{mode}] {args.authors} students sign in at once ...")
        with ThreadPoolExecutor(max_workers=args.authors) as pool:
            list(pool.map(Author.sign_in, authors))
        signed_in = [a for a in authors if a.sign_in_seconds is not None]
        asyncio.run(warm_up(bases, signed_in[0].session, round_id, time.perf_counter() + 240))
        cold_start = time.perf_counter() - spawned
        log(f"[{mode}] {len(signed_in)} authors type for {args.seconds:.0f} s ...")

        async def drive() -> None:
            asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=args.authors + 4))
            await asyncio.gather(*(run_author(a, args.seconds, seed=a.index) for a in signed_in))

        asyncio.run(drive())
        accepted = [token for a in authors for token in a.accepted]
        stored = count_stored(env, accepted)
        errors = [e for a in authors for e in a.errors]
        statuses: dict[str, int] = {}
        for author in authors:
            for state, count in author.statuses.items():
                statuses[state] = statuses.get(state, 0) + count
        sent = sum(len(a.sent) for a in authors)
        answered = sum(len(a.answers) for a in authors)
        sign_ms = np.asarray([a.sign_in_seconds for a in signed_in]) * 1000
        return {**pause_results(authors), "drafts_sent": sent, "drafts_answered": answered,
                "drafts_superseded": sent - answered - sum(statuses.values()) + statuses.get("loading", 0),
                "statuses": statuses, "submissions_accepted": len(accepted), "submissions_stored": stored,
                "lost": len(accepted) - stored, "errors": len(errors), "error_examples": sorted(set(errors))[:10],
                "sign_in_p50_ms": round(float(np.percentile(sign_ms, 50)), 1) if len(sign_ms) else None,
                "sign_in_p95_ms": round(float(np.percentile(sign_ms, 95)), 1) if len(sign_ms) else None,
                "cold_start_s": round(cold_start, 1)}
    finally:
        for process in processes:
            stop(process)
        drop_database(args.database_url, name)


def _wait_up(bases: list[str], timeout: float = 120) -> None:
    import requests

    deadline = time.monotonic() + timeout
    for base in bases:
        while True:
            try:
                requests.get(f"{base}/healthz/", timeout=5)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{base} did not start") from None
                time.sleep(0.5)


def table(result: dict) -> str:
    rows = [f"{result['authors']} authors, {result['web_processes']} web processes, {result['seconds']:.0f} s per mode"]
    for mode, r in result["modes"].items():
        rows.append(f"  {mode:6} pauses answered {r['pauses_answered_share']} of {r['pauses']}, pause->prediction "
                    f"p50 {r['pause_p50_ms']} ms p95 {r['pause_p95_ms']} ms; drafts sent {r['drafts_sent']}, answered "
                    f"{r['drafts_answered']}, superseded {r['drafts_superseded']}; submissions {r['submissions_accepted']}"
                    f" accepted, {r['submissions_stored']} stored, lost {r['lost']}; errors {r['errors']}; sign-in "
                    f"p95 {r['sign_in_p95_ms']} ms; cold start {r['cold_start_s']} s; statuses {r['statuses']}")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--authors", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--web", type=int, default=2)
    parser.add_argument("--modes", default="local,worker", help="comma-separated STUMPER_INFERENCE_MODE values")
    parser.add_argument("--database-url", default=os.environ.get("CLASSROOM_DATABASE_URL",
                                                                 "postgres://postgres@127.0.0.1:5432/postgres"))
    parser.add_argument("--redis-url", default=os.environ.get("CLASSROOM_REDIS_URL", "redis://127.0.0.1:6379/9"))
    parser.add_argument("--quick", action="store_true", help="3 authors, 15 s per mode (same code path)")
    parser.add_argument("--out", type=Path, default=OUT_FILE)
    parser.add_argument("--json", action="store_true", help="print the result as one JSON document on stdout")
    args = parser.parse_args()
    if args.quick:
        args.authors, args.seconds = min(args.authors, 3), min(args.seconds, 15)
    modes = [m for m in args.modes.split(",") if m]
    if not modes or any(m not in ("local", "worker") for m in modes) or args.authors < 1 or args.seconds <= 0:
        parser.error("--modes takes local and/or worker; --authors and --seconds must be positive")
    result = {"authors": args.authors, "seconds": args.seconds, "web_processes": args.web, "quick": args.quick,
              "modes": {mode: run_mode(mode, args) for mode in modes}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    log(table(result))
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
