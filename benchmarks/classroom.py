"""Classroom benchmark: a class signs in and writes questions at once, as the authoring page does.

    .venv/bin/python benchmarks/classroom.py [--authors 50] [--seconds 120] [--web 2] [--modes local,worker]
        [--database-url postgres://postgres@127.0.0.1:5432/postgres] [--redis-url redis://127.0.0.1:6379/9]
        [--quick] [--out PATH] [--json]

For each mode (``STUMPER_INFERENCE_MODE``): a throwaway database on the PostgreSQL server (dropped
at the end), ``--web`` daphne processes and one Celery worker (every queue), all with Redis, the
production-like local settings and the default live model v0. Then every author, as separate
clients over TCP:

- signs in through the form (GET the page, POST username, password and CSRF token), all at once;
- opens the author websocket with the session cookie and types questions with the typist of
  ``page_typist.py`` (the one model of author and page every benchmark uses): lognormal keystroke
  gaps (median 180 ms), short pauses after some words and thinking pauses of 1-3 s, a pause between
  fields, an answer marked, a revision or two, then the form POST of the question (a fresh client
  token each; a question begun within ``--seconds`` is finished and submitted);
- follows the page's rules (``static/js/author/live.js``): a draft ``DEBOUNCE_MS`` after the last
  keystroke, only when the prompt and all four completions are filled, never one identical to the
  draft in flight or to the last answered one.

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
import secrets
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from tempfile import mkdtemp

import numpy as np
from classroom_author import PASSWORD, Author, run_author
from page_typist import Page
from servers import (
    ROOT,
    create_database,
    drop_database,
    free_port,
    log,
    start_process,
    stop_process,
    wait_until_serving,
)

sys.path.insert(0, str(ROOT))
from benchmark_output import emit_result

OUT_FILE = ROOT / "benchmarks" / "out" / "classroom.json"


# ---- installation --------------------------------------------------------------------------------

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
        "from accounts.models import User; from accounts.services import user_create; from collector.services.rounds import round_create;"
        "from courses.services import course_create, course_join; from modelhub.services import model_version_default;"
        "call_command('migrate', verbosity=0);"
        "t = user_create(username='teacher', password=sys.argv[2], role=User.Role.INSTRUCTOR);"
        "c = course_create(owner=t, name='Classroom');"
        "r = round_create(course=c, name='classroom', live_model=model_version_default());"
        "[course_join(user=user_create(username=f'student-{i}', password=sys.argv[2]), join_code=c.join_code)"
        " for i in range(int(sys.argv[1]))]; print(r.pk)"
    )
    result = subprocess.run([sys.executable, "-c", code, str(n), PASSWORD], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=900, check=True)
    return int(result.stdout.strip().splitlines()[-1])


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


def pause_results(pages: list[Page]) -> dict:
    latencies, answered, total = [], 0, 0
    for page in pages:
        for pause_ in page.pauses:
            total += 1
            seen = [t for t, key in page.answers if key == pause_.key and t <= pause_.end]
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
        processes += [start_process([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                             "config.asgi:application"], env, var_dir / f"web-{i}.log") for i, port in enumerate(ports)]
        processes.append(start_process([sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=threads",
                                "--concurrency=2", "-Q", "default,training,inference", "-l", "warning"], env,
                               var_dir / "worker.log"))
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        authors = [Author(i, bases[i % len(bases)], round_id) for i in range(args.authors)]
        for base in bases:
            wait_until_serving(f"{base}/healthz/", timeout=300)  # a loaded 2-core machine starts slowly
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
        pages = [a.page for a in authors if a.page is not None]
        errors = [e for a in authors for e in a.errors] + [e for page in pages for e in page.errors]
        statuses: dict[str, int] = {}
        for page in pages:
            for state, count in page.statuses.items():
                statuses[state] = statuses.get(state, 0) + count
        sent = sum(len(page.sent) for page in pages)
        answered = sum(len(page.answers) for page in pages)
        sign_ms = np.asarray([a.sign_in_seconds for a in signed_in]) * 1000
        return {**pause_results(pages), "drafts_sent": sent, "drafts_answered": answered,
                "drafts_superseded": sent - answered - sum(statuses.values()) + statuses.get("loading", 0),
                "statuses": statuses, "submissions_accepted": len(accepted), "submissions_stored": stored,
                "lost": len(accepted) - stored, "errors": len(errors), "error_examples": sorted(set(errors))[:10],
                "sign_in_p50_ms": round(float(np.percentile(sign_ms, 50)), 1) if len(sign_ms) else None,
                "sign_in_p95_ms": round(float(np.percentile(sign_ms, 95)), 1) if len(sign_ms) else None,
                "cold_start_s": round(cold_start, 1)}
    finally:
        for process in processes:
            stop_process(process)
        drop_database(args.database_url, name)


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
    log(table(result))
    emit_result(result, args.out, as_json=args.json)


if __name__ == "__main__":
    main()
