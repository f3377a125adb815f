"""Live-feedback benchmark: how fast do authors see the model's probabilities?

    .venv/bin/python benchmarks/live_feedback.py [--authors 16] [--seconds 15] [--n 50]

Builds a throwaway installation (SQLite in a temporary STUMPER_VAR_DIR, one open round whose
live model is version 0, ``services.model_version_default()``), starts daphne on a free port
and measures in one run:

(a) the bare forward pass of the default model for 1 question x 4 choices, in this process
    (in an executor thread, as the server's batcher runs it, and in the main thread);
(b) the websocket round trip for 1 author: draft sent -> its prediction received;
(c) N authors typing at once for a while (a new draft every 150-300 ms, then a final draft):
    latency of every answered draft and of every final draft, final drafts left unanswered,
    stale replies and "busy" statuses.

Students are signed in by writing Django sessions directly and sending the ``sessionid``
cookie (plus the ``Origin`` header that AllowedHostsOriginValidator checks) on the handshake.
Results are printed and written to benchmarks/out/live_feedback.json.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT_FILE = ROOT / "benchmarks" / "out" / "live_feedback.json"
REPLY_TIMEOUT = 30.0  # seconds to wait for one prediction before calling it missing
FINAL_TIMEOUT = 15.0

# A question that an author "types": the prompt grows one character per keystroke.
PROMPT = "The chef forgot the bread in the oven for an hour, so the toast he served was"
CHOICES = ["burnt and black.", "perfectly golden.", "still frozen.", "soft and white."]


def configure_environment(var_dir: Path) -> dict[str, str]:
    """Settings for this process and the server: nothing from the developer's .env or servers."""
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "STUMPER_BROKER_DIR"):
        env.pop(name, None)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        STUMPER_ENV_FILE=os.devnull,
        STUMPER_VAR_DIR=str(var_dir),
        SECRET_KEY=secrets.token_urlsafe(40),
        DEBUG="false",
        HF_HUB_OFFLINE="1",
        LOG_LEVEL="WARNING",
    )
    os.environ.clear()
    os.environ.update(env)
    return env


@dataclass
class Setup:
    round_id: int
    version_name: str
    session_keys: list[str]


def build_installation(n_students: int) -> Setup:
    """Migrate, then create an instructor, a course, an open round and signed-in students."""
    import django

    sys.path.insert(0, str(ROOT))
    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from accounts.models import User
    from accounts.services import user_create
    from collector import services

    call_command("migrate", verbosity=0)
    instructor = user_create(username="bench-teacher", password="bench-pass-123!", role=User.Role.INSTRUCTOR)
    course = services.course_create(owner=instructor, name="Benchmark course")
    version = services.model_version_default()
    round_ = services.round_create(course=course, name="bench-round", live_model=version)
    keys = []
    for i in range(n_students):
        student = user_create(username=f"bench-student-{i}", password="bench-pass-123!", role=User.Role.STUDENT)
        services.course_join(user=student, join_code=course.join_code)
        session = SessionStore()
        session[SESSION_KEY] = str(student.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = student.get_session_auth_hash()
        session.create()
        keys.append(session.session_key)
    return Setup(round_id=round_.pk, version_name=version.name, session_keys=keys)


def measure_bare_forward(n: int, *, in_worker_thread: bool) -> list[float]:
    """(a) seconds per call of the scorer on 1 question, loaded in this process and warmed up.

    The server's batcher runs the model in an executor thread, and torch's CPU threading differs
    between the main thread and other threads, so the comparable bare time is taken in a worker
    thread too; the main-thread time is reported beside it.
    """
    from collector import services
    from collector.inference import predict_examples
    from mlcore.configs import MCExample

    version = services.model_version_default()
    examples = [MCExample(prompt=PROMPT[: 20 + i % 50], choices=tuple(CHOICES)) for i in range(n)]

    def timed(example: MCExample) -> float:
        start = time.perf_counter()
        predict_examples(version, [example])
        return time.perf_counter() - start

    with ThreadPoolExecutor(max_workers=1) as pool:
        def call(example: MCExample) -> float:
            return pool.submit(timed, example).result() if in_worker_thread else timed(example)

        for example in examples[:5]:
            call(example)
        return [call(example) for example in examples]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(env: dict[str, str], port: int, log_path: Path) -> subprocess.Popen:
    daphne = Path(sys.executable).parent / "daphne"
    log = open(log_path, "wb")  # noqa: SIM115 - closed with the process in stop_server
    process = subprocess.Popen(
        [str(daphne), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited with {process.returncode}:\n{log_path.read_text()[-3000:]}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
            return process
        except urllib.error.HTTPError:
            return process  # any HTTP status means it is serving
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise RuntimeError(f"daphne did not answer on port {port} within 60 s:\n{log_path.read_text()[-3000:]}")


def stop_server(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def draft(text_length: int, seq: int) -> str:
    prompt = PROMPT[: max(12, min(text_length, len(PROMPT)))]
    return json.dumps({"type": "draft", "prompt": prompt, "choices": CHOICES, "answer": 0, "seq": seq})


class Author:
    """One websocket connection; remembers when each draft was sent and which got answered."""

    def __init__(self, url: str, origin: str, session_key: str) -> None:
        self.url, self.origin, self.session_key = url, origin, session_key
        self.sent: dict[int, float] = {}
        self.latency_of: dict[int, float] = {}  # seq -> seconds from sending to its prediction
        self.stale = 0
        self.statuses: dict[str, int] = {}
        self.errors: list[str] = []
        self.answer_seen = asyncio.Event()

    async def __aenter__(self) -> Self:
        from websockets.asyncio.client import connect

        self.connection = await connect(
            self.url, origin=self.origin, additional_headers={"Cookie": f"sessionid={self.session_key}"},
            compression=None, proxy=None, open_timeout=20,
        )
        self.reader = asyncio.ensure_future(self._read())
        return self

    async def __aexit__(self, *exc) -> None:
        self.reader.cancel()
        await self.connection.close()

    async def _read(self) -> None:
        async for raw in self.connection:
            now = time.perf_counter()
            message = json.loads(raw)
            kind, seq = message.get("type"), message.get("seq")
            if kind == "prediction" and seq in self.sent:
                self.latency_of[seq] = now - self.sent[seq]
                # A reply to anything but the newest draft is stale: the author already moved on.
                self.stale += seq < max(self.sent)
                self.answer_seen.set()
            elif kind == "status":
                self.statuses[message.get("state", "?")] = self.statuses.get(message.get("state", "?"), 0) + 1
            elif kind == "error":
                self.errors.append(message.get("message", ""))

    async def send(self, seq: int, text_length: int) -> None:
        self.answer_seen.clear()
        self.sent[seq] = time.perf_counter()
        await self.connection.send(draft(text_length, seq))

    async def wait_for(self, seq: int, timeout: float) -> bool:
        deadline = time.perf_counter() + timeout
        while seq not in self.latency_of:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return False
            try:
                await asyncio.wait_for(self.answer_seen.wait(), timeout=remaining)
            except TimeoutError:
                return False
            self.answer_seen.clear()
        return True


async def measure_one_author(url: str, origin: str, session_key: str, n: int) -> list[float]:
    """(b) send a draft, wait for its prediction, n times (after a warm-up that loads the model)."""
    async with Author(url, origin, session_key) as author:
        for seq in range(1, 4):  # the first draft loads the model in the server
            await author.send(seq, 20 + seq)
            if not await author.wait_for(seq, 120):
                raise RuntimeError(f"no prediction during warm-up: {author.statuses} {author.errors}")
        measured = range(100, 100 + n)
        for seq in measured:
            await author.send(seq, 20 + seq % 50)
            if not await author.wait_for(seq, REPLY_TIMEOUT):
                raise RuntimeError(f"draft {seq} got no prediction within {REPLY_TIMEOUT} s: {author.statuses} {author.errors}")
        return [author.latency_of[seq] for seq in measured]


@dataclass
class CrowdResult:
    answered_latencies: list[float] = field(default_factory=list)
    final_latencies: list[float] = field(default_factory=list)
    drafts_sent: int = 0
    missing_finals: int = 0
    stale: int = 0
    superseded: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


async def type_for(author: Author, seconds: float, rng: random.Random) -> tuple[int, bool]:
    """Keystrokes for ``seconds``, then a final draft; returns (final seq, final answered)."""
    await asyncio.sleep(rng.uniform(0, 0.3))  # authors do not start in lockstep
    deadline = time.perf_counter() + seconds
    seq, length = 0, 12
    while time.perf_counter() < deadline:
        seq += 1
        length = 12 + (length - 11) % (len(PROMPT) - 12)  # grows, then starts over
        await author.send(seq, length)
        await asyncio.sleep(rng.uniform(0.15, 0.30))
    seq += 1
    await author.send(seq, len(PROMPT))
    return seq, await author.wait_for(seq, FINAL_TIMEOUT)


async def measure_crowd(url: str, origin: str, session_keys: list[str], seconds: float, seed: int) -> CrowdResult:
    """(c) all authors typing at once."""
    authors: list[Author] = []
    try:
        for key in session_keys:
            authors.append(await Author(url, origin, key).__aenter__())
        rngs = [random.Random(seed + i) for i in range(len(authors))]
        outcomes = await asyncio.gather(*(type_for(a, seconds, r) for a, r in zip(authors, rngs)))
    finally:
        for author in authors:
            await author.__aexit__()
    result = CrowdResult()
    for author, (final_seq, answered) in zip(authors, outcomes):
        result.answered_latencies += author.latency_of.values()
        result.drafts_sent += len(author.sent)
        result.stale += author.stale
        result.superseded += len(author.sent) - len(author.latency_of) - (0 if answered else 1)
        result.errors += author.errors
        for state, count in author.statuses.items():
            result.statuses[state] = result.statuses.get(state, 0) + count
        if answered:
            result.final_latencies.append(author.latency_of[final_seq])
        else:
            result.missing_finals += 1
    return result


def percentiles(values: list[float]) -> tuple[float, float]:
    if not values:
        return float("nan"), float("nan")
    p50, p95 = np.percentile(np.asarray(values) * 1000.0, [50, 95])
    return float(p50), float(p95)


def report(bare: list[float], bare_main: list[float], single: list[float], crowd: CrowdResult,
           args: argparse.Namespace, model: str) -> dict:
    rows = [
        ("(a) bare forward, 1 question x 4 choices", bare),
        ("    same, in the main thread", bare_main),
        ("(b) websocket round trip, 1 author", single),
        (f"(c) {args.authors} authors typing: answered drafts", crowd.answered_latencies),
        (f"(c) {args.authors} authors typing: final drafts", crowd.final_latencies),
    ]
    print(f"\nLive feedback, model {model}, {os.cpu_count()} CPUs, {args.seconds:.0f} s of typing\n")
    print(f"{'measure':<48} {'n':>5} {'p50 ms':>9} {'p95 ms':>9}")
    for label, values in rows:
        p50, p95 = percentiles(values)
        print(f"{label:<48} {len(values):>5} {p50:>9.1f} {p95:>9.1f}")
    (bare50, bare95), (rt50, rt95) = percentiles(bare), percentiles(single)
    crowd95 = percentiles(crowd.answered_latencies)[1]
    final95 = percentiles(crowd.final_latencies)[1]
    print(f"\nround trip / bare forward, 1 author: p50 {rt50 / bare50:.2f}x, p95 {rt95 / bare95:.2f}x (aim <= 1.3)")
    print(f"{args.authors}-author p95: answered drafts {crowd95:.0f} ms, final drafts {final95:.0f} ms (aim < 1000 ms)")
    print(f"final drafts without a prediction: {crowd.missing_finals} of {args.authors}; "
          f"stale replies: {crowd.stale}; drafts sent: {crowd.drafts_sent}; "
          f"superseded by a newer draft (not answered, by design): {crowd.superseded}; "
          f"statuses: {crowd.statuses or 'none'}; errors: {len(crowd.errors)}")
    return {
        "model": model, "cpus": os.cpu_count(), "authors": args.authors, "seconds": args.seconds,
        "bare_forward_ms": dict(zip(("p50", "p95"), (bare50, bare95)), n=len(bare)),
        "bare_forward_main_thread_ms": dict(zip(("p50", "p95"), percentiles(bare_main)), n=len(bare_main)),
        "round_trip_1_author_ms": dict(zip(("p50", "p95"), (rt50, rt95)), n=len(single)),
        "ratio_p50": rt50 / bare50, "ratio_p95": rt95 / bare95,
        "crowd_answered_ms": dict(zip(("p50", "p95"), percentiles(crowd.answered_latencies)),
                                  n=len(crowd.answered_latencies)),
        "crowd_final_ms": dict(zip(("p50", "p95"), percentiles(crowd.final_latencies)), n=len(crowd.final_latencies)),
        "missing_finals": crowd.missing_finals, "stale": crowd.stale, "superseded": crowd.superseded,
        "drafts_sent": crowd.drafts_sent, "statuses": crowd.statuses, "errors": crowd.errors[:10],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--authors", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--n", type=int, default=50, help="samples for (a) and (b)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs, database)")
    args = parser.parse_args()

    var_dir = Path(tempfile.mkdtemp(prefix="stumper-bench-"))
    env = configure_environment(var_dir)
    server = None
    try:
        print(f"Setting up in {var_dir} ...", flush=True)
        setup = build_installation(args.authors)
        print(f"(a) bare forward x {args.n} ...", flush=True)
        bare = measure_bare_forward(args.n, in_worker_thread=True)
        bare_main = measure_bare_forward(args.n, in_worker_thread=False)
        port = free_port()
        server = start_server(env, port, var_dir / "daphne.log")
        url, origin = f"ws://127.0.0.1:{port}/ws/author/{setup.round_id}/", f"http://127.0.0.1:{port}"
        print(f"(b) 1 author x {args.n} on port {port} ...", flush=True)
        single = asyncio.run(measure_one_author(url, origin, setup.session_keys[0], args.n))
        print(f"(c) {args.authors} authors typing for {args.seconds:.0f} s ...", flush=True)
        crowd = asyncio.run(measure_crowd(url, origin, setup.session_keys, args.seconds, args.seed))
        results = report(bare, bare_main, single, crowd, args, setup.version_name)
        OUT_FILE.parent.mkdir(parents=True, exist_ok=True)
        OUT_FILE.write_text(json.dumps(results, indent=2), encoding="utf-8")
        print(f"\nWrote {OUT_FILE.relative_to(ROOT)}")
        return 1 if crowd.missing_finals else 0
    except Exception as error:
        log = var_dir / "daphne.log"
        if log.is_file():
            print(f"--- last lines of {log} ---\n{log.read_text(errors='replace')[-3000:]}", file=sys.stderr)
        print(f"Benchmark failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    finally:
        if server is not None:
            stop_server(server)
        if args.keep:
            print(f"Kept {var_dir}")
        else:
            shutil.rmtree(var_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
