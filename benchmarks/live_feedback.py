"""Live-feedback benchmark: how fast do authors see the model's probabilities?

    .venv/bin/python benchmarks/live_feedback.py [--authors 16] [--seconds 20] [--n 40] [--quick] [--json] [--out PATH]

Builds a throwaway installation (SQLite in a temporary STUMPER_VAR_DIR, one open round whose live
model is version 0, or with ``--quick`` a tiny random BERT), starts daphne on a free port and
measures in one run, with the draft rate limit set to what the page can send (one draft per
``DEBOUNCE_MS`` of static/js/author/live.js, read from the file):

(a) the bare forward of the live scorer (``predict_examples``) on 1 question x 4 choices with a new
    prompt, in this process, in an executor thread as the server runs it: back to back (and in the
    main thread), and at (b)'s cadence, taken in turn with (b);
(b) the websocket round trip for 1 author sending the same kind of drafts at the page's cadence (a
    draft, its answer, the pause of a typist who types again and waits the debounce);
(c) N authors editing questions the way the page sends them: a typist's keystroke gaps, pauses
    between words and between fields; the page's debounce decides when a draft goes out (only a
    changed draft is sent). "Pause to prediction" is from the moment the page sends the draft
    (the debounce found a pause) to its prediction; the time since the last keystroke adds the
    debounce and is reported beside it.

Headline keys of benchmarks/out/live_feedback.json (stable): ``ratio_p50`` (round trip / bare
forward at the same cadence, p50, one author; aim <= 1.2: what the serving path adds to the model),
``ratio_p95``, ``ratio_p50_back_to_back`` (round trip / bare forward called back to back: adds what an
idle CPU costs the next forward), ``authors_p50_ms`` and ``authors_p95_ms``
(pause to prediction over the answered drafts of (c); aim p95 < 300 ms), ``authors_p95_from_last_key_ms``,
``drafts_sent``, ``drafts_answered``, ``superseded`` (replaced by the author's newer draft before
their batch ran: not answered, by design), ``pauses_answered_share`` (answered before the author
typed again), ``final_drafts``, ``final_drafts_answered`` (aim: all), ``rate_limited``, ``errors``;
context: ``bare_forward_ms`` (at the cadence), ``bare_forward_back_to_back_ms``, ``round_trip_1_author_ms``, ``debounce_ms``, ``draft_rate``, ``engine``,
``cpu_capability``, ``torch_threads``, ``model``, ``quick``. Timings are as noisy as the machine.
Exit status 1 if a final draft went unanswered or a draft was rate limited.
"""
from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import secrets
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from benchmark_output import emit_result
from live_feedback_report import CrowdResult, print_table, report
from page_typist import OpenPage, Page, Typist, page_debounce_ms
from servers import ROOT, free_port, start_process, stop_process, wait_until_serving

OUT_FILE = ROOT / "benchmarks" / "out" / "live_feedback.json"
REPLY_TIMEOUT = 30.0  # seconds to wait for one prediction before calling it missing
FINAL_TIMEOUT = 15.0
# What the authors edit; "{name}" makes every author's text their own (no shared cache entries).
QUESTIONS = [
    ("{name} forgot the bread in the oven for an hour, so the toast was",
     ("burnt and black.", "perfectly golden.", "still frozen.", "soft and white.")),
    ("{name} ran the whole marathon without training. The next morning {name}",
     ("could hardly walk.", "ran another one.", "felt rested.", "grew taller.")),
    ("It rained all night and {name} left the window open. The carpet",
     ("was soaked.", "was dry.", "caught fire.", "turned into wood.")),
    ("{name} put the ice cream on the sunny balcony. An hour later it",
     ("had melted.", "was frozen solid.", "had grown.", "was singing.")),
]
NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emre", "Farah", "Gus", "Hana", "Ivan", "Jun", "Kofi", "Lena", "Mia",
         "Noor", "Omar", "Pia", "Quinn", "Rosa", "Sami", "Tara"]


def configure_environment(var_dir: Path, draft_rate: float) -> dict[str, str]:
    """Settings for this process and the server: nothing from the developer's .env or servers."""
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "STUMPER_BROKER_DIR", "STUMPER_DRAFT_BURST"):
        env.pop(name, None)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        STUMPER_ENV_FILE=os.devnull,
        STUMPER_VAR_DIR=str(var_dir),
        SECRET_KEY=secrets.token_urlsafe(40),
        DEBUG="false",
        HF_HUB_OFFLINE="1",
        LOG_LEVEL="WARNING",
        # The page sends at most one draft per debounce: the limit a real author can reach.
        STUMPER_DRAFT_RATE=repr(draft_rate),
    )
    os.environ.clear()
    os.environ.update(env)
    return env


@dataclass
class Setup:
    round_id: int
    version_name: str
    session_keys: list[str]


def build_installation(n_students: int, *, tiny: bool, var_dir: Path) -> Setup:
    """Migrate, then create an instructor, a course, an open round and signed-in students."""
    import django

    sys.path.insert(0, str(ROOT))
    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from accounts.models import User
    from accounts.services import user_create
    from collector.services.rounds import round_create
    from courses.services import course_create, course_join
    from modelhub.services import model_version_default, model_version_register

    call_command("migrate", verbosity=0)
    instructor = user_create(username="bench-teacher", password="bench-pass-123!", role=User.Role.INSTRUCTOR)
    course = course_create(owner=instructor, name="Benchmark course")
    if tiny:
        from mlcore.testing import build_tiny_bert

        path = build_tiny_bert(var_dir / "tiny-model", seed=0, with_head=True)
        version = model_version_register(name="tiny-bench-model", kind="multiple_choice", path=str(path))
    else:
        version = model_version_default()
    round_ = round_create(course=course, name="bench-round", live_model=version)
    keys = []
    for i in range(n_students):
        student = user_create(username=f"bench-student-{i}", password="bench-pass-123!", role=User.Role.STUDENT)
        course_join(user=student, join_code=course.join_code)
        session = SessionStore()
        session[SESSION_KEY] = str(student.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = student.get_session_auth_hash()
        session.create()
        keys.append(session.session_key)
    return Setup(round_id=round_.pk, version_name=version.name, session_keys=keys)


def fresh_question(tag: str, i: int) -> tuple[str, tuple[str, ...]]:
    """Question ``i`` with a prompt never sent before (so its 4 pairs are computed), fixed choices."""
    prompt, choices = QUESTIONS[0]
    return f"{prompt.format(name=NAMES[i % len(NAMES)])} {tag}{i}", choices


def bare_forward(round_id: int) -> Callable[[str, int], float]:
    """(a) ``timed(tag, i)``: seconds of one call of the live scorer on question ``i`` (a prompt never sent before)."""
    from collector.models import Round
    from mlcore.configs import MCExample
    from modelhub.inference import predict_examples

    version = Round.objects.get(pk=round_id).live_model

    def timed(tag: str, i: int) -> float:
        example = MCExample(*fresh_question(tag, i))
        start = time.perf_counter()
        predict_examples(version, [example])
        return time.perf_counter() - start

    return timed


def measure_back_to_back(timed: Callable[[str, int], float], n: int, *, in_worker_thread: bool) -> list[float]:
    """(a) calls back to back, after 5 warm-up calls, in an executor thread (as the server runs the
    model; torch's CPU threading differs between the main thread and others) or the main thread."""
    tag = "worker" if in_worker_thread else "main"
    with ThreadPoolExecutor(max_workers=1) as pool:
        def call(i: int) -> float:
            return pool.submit(timed, tag, i).result() if in_worker_thread else timed(tag, i)

        for i in range(5):
            call(i)
        return [call(i) for i in range(5, n + 5)]


async def send_fresh(page: Page, tag: str, i: int) -> int:
    """Put a question with a never-sent prompt on the page and send it at once; its seq."""
    page.fill(*fresh_question(tag, i))
    seq = await page.send()
    assert seq is not None, "a new prompt is always sent"
    return seq


async def warm_up(page: Page, debounce: float, seconds: float = 120.0) -> None:
    """Drafts until 3 are answered: the first loads the model in the server (it may answer "unavailable")."""
    deadline, answered, i = time.perf_counter() + seconds, 0, 0
    while answered < 3:
        if time.perf_counter() > deadline:
            raise RuntimeError(f"no prediction during warm-up: {page.statuses} {page.errors}")
        i += 1
        seq = await send_fresh(page, "warm", i)
        answered += await page.wait_for(seq, REPLY_TIMEOUT)
        await asyncio.sleep(debounce * 1.2)


async def measure_one_author(url: str, origin: str, session_key: str, n: int, debounce: float,
                             timed: Callable[[str, int], float]) -> tuple[list[float], list[float]]:
    """(b) a draft with a new prompt, its prediction, then the pause the page allows, n times (after a
    warm-up); in turn with each, (a) at the same cadence: one bare forward here, then the same pause.

    Taking them in turn gives both the same conditions: a CPU that idled for a pause computes the
    next forward slower than one called back to back (threads asleep, caches cold), and whatever
    else the machine does hits both alike. Returns (bare forward, round trip) seconds.
    """
    gap = debounce * 1.2  # the author typed again and paused for the debounce
    loop, bare, trips = asyncio.get_running_loop(), [], []
    async with OpenPage(url, origin, f"sessionid={session_key}", debounce=debounce, answer=0) as page:
        await warm_up(page, debounce)
        with ThreadPoolExecutor(max_workers=1) as pool:
            for i in range(n):
                seq = await send_fresh(page, "socket", i)
                if not await page.wait_for(seq, REPLY_TIMEOUT):
                    raise RuntimeError(f"draft {seq} got no prediction within {REPLY_TIMEOUT} s: "
                                       f"{page.statuses} {page.errors}")
                trips.append(page.latency(seq))
                await asyncio.sleep(max(0.0, gap - trips[-1]))
                bare.append(await loop.run_in_executor(pool, timed, "paced", i))
                await asyncio.sleep(max(0.0, gap - bare[-1]))
    return bare, trips


async def type_for(page: Page, index: int, seconds: float, rng: random.Random) -> Page:
    """Edit one question field by field for ``seconds``, then pause; the page sends as it would."""
    prompt, choices = QUESTIONS[index % len(QUESTIONS)]
    page.fill(prompt.format(name=NAMES[index % len(NAMES)]), choices)
    typist = Typist(rng)
    await asyncio.sleep(rng.uniform(0, 1.0))  # authors do not start in lockstep
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        name = rng.choice(["prompt", "prompt", "choice_0", "choice_1", "choice_2", "choice_3"])
        await page.type(name, typist.edit(page.fields[name]), typist)
        await page.pause(typist.field_pause())
    return page


async def measure_crowd(url: str, origin: str, session_keys: list[str], seconds: float, debounce: float,
                        seed: int) -> CrowdResult:
    """(c) all authors editing at once."""
    opened: list[OpenPage] = []
    result = CrowdResult()
    try:
        pages = []
        for key in session_keys:
            opened.append(OpenPage(url, origin, f"sessionid={key}", debounce=debounce, answer=0))
            pages.append(await opened[-1].__aenter__())
        await asyncio.gather(*(type_for(page, i, seconds, random.Random(seed + i)) for i, page in enumerate(pages)))
        finals = await asyncio.gather(*(page.wait_for(page.seq, FINAL_TIMEOUT) for page in pages if page.seq))
    finally:
        for page_context in opened:
            await page_context.__aexit__()
    for page in pages:
        result.latencies += [page.latency(seq) for seq in page.answered_at]
        result.drafts_sent += len(page.sent)
        result.answered_in_pause += sum(at < page.resumed_at.get(seq, math.inf) for seq, at in page.answered_at.items())
        result.stale += page.stale
        result.errors += page.errors
        for state, count in page.statuses.items():
            result.statuses[state] = result.statuses.get(state, 0) + count
    result.final_drafts, result.final_answered = len(finals), sum(finals)
    return result


def run(args: argparse.Namespace, var_dir: Path) -> dict:
    debounce_ms = page_debounce_ms()
    env = configure_environment(var_dir, draft_rate=1000.0 / debounce_ms)
    server = None
    log = sys.stderr if args.json else sys.stdout
    try:
        print(f"Setting up in {var_dir} ...", file=log, flush=True)
        setup = build_installation(args.authors, tiny=args.quick, var_dir=var_dir)
        print(f"(a) bare forward x {args.n}, back to back ...", file=log, flush=True)
        timed = bare_forward(setup.round_id)
        bare = {"back_to_back": measure_back_to_back(timed, args.n, in_worker_thread=True),
                "main_thread": measure_back_to_back(timed, args.n, in_worker_thread=False)}
        port = free_port()
        server_log = var_dir / "daphne.log"
        server = start_process([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                "config.asgi:application"], env, server_log)
        wait_until_serving(f"http://127.0.0.1:{port}/", timeout=180, process=server, log_path=server_log)
        url, origin = f"ws://127.0.0.1:{port}/ws/author/{setup.round_id}/", f"http://127.0.0.1:{port}"
        print(f"(b) 1 author x {args.n} on port {port}, in turn with (a) at the same cadence ...", file=log, flush=True)
        bare["paced"], single = asyncio.run(
            measure_one_author(url, origin, setup.session_keys[0], args.n, debounce_ms / 1000, timed))
        print(f"(c) {args.authors} authors typing for {args.seconds:.0f} s ...", file=log, flush=True)
        crowd = asyncio.run(measure_crowd(url, origin, setup.session_keys, args.seconds, debounce_ms / 1000, args.seed))
    except Exception:
        daphne_log = var_dir / "daphne.log"
        if daphne_log.is_file():
            print(f"--- last lines of {daphne_log} ---\n{daphne_log.read_text(errors='replace')[-3000:]}", file=sys.stderr)
        raise
    finally:
        if server is not None:
            stop_process(server, timeout=10)
    return report(bare, single, crowd, args, live_context(setup.version_name, debounce_ms))


def live_context(model: str, debounce_ms: int) -> dict:
    import torch
    from django.conf import settings

    from mlcore.models.engines import resolve_engine

    return {"model": model, "engine": resolve_engine(settings.STUMPER_INFERENCE_ENGINE),
            "cache_size": settings.STUMPER_INFERENCE_CACHE_SIZE, "cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "torch_threads": settings.STUMPER_TORCH_THREADS, "debounce_ms": debounce_ms,
            "draft_rate": settings.STUMPER_DRAFT_RATE, "draft_burst": settings.STUMPER_DRAFT_BURST}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--authors", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--n", type=int, default=40, help="samples for (a) and (b)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="tiny model, 3 authors, a few seconds (for the tests)")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON document on stdout")
    parser.add_argument("--out", type=Path, default=OUT_FILE, help=f"where to write the JSON (default {OUT_FILE})")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs, database)")
    args = parser.parse_args()
    if args.quick:
        args.authors, args.seconds, args.n = min(args.authors, 3), min(args.seconds, 6.0), min(args.n, 10)
    var_dir = Path(tempfile.mkdtemp(prefix="stumper-bench-"))
    try:
        results = run(args, var_dir)
    except Exception as error:
        print(f"Benchmark failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    finally:
        if args.keep:
            print(f"Kept {var_dir}", file=sys.stderr)
        else:
            shutil.rmtree(var_dir, ignore_errors=True)
    print_table(results, sys.stderr if args.json else sys.stdout)
    emit_result(results, args.out, as_json=args.json)
    return 1 if results["final_drafts_answered"] < results["final_drafts"] or results["rate_limited"] else 0


if __name__ == "__main__":
    sys.exit(main())
