"""The authoring page and the person typing into it, as the benchmarks that drive the author socket use them.

One model of both for every benchmark (``live_feedback.py``, ``classroom.py``):

- ``Typist`` draws a real typist's timing: lognormal keystroke gaps (median 180 ms), short pauses
  between some words, longer thinking pauses, and a pause between fields.
- ``Page`` is the client side of ``static/js/author/live.js``: a draft goes out ``DEBOUNCE_MS`` (read from
  the file) after the last keystroke, only when the prompt and all four completions are filled, and
  never when it is identical (text and marked answer) to the draft in flight or to the last answered
  one. It records what was sent and answered, and the author's pauses, for the figures.
"""
from __future__ import annotations

import asyncio
import json
import math
import random
import re
import time
from dataclasses import dataclass
from pathlib import Path

AUTHOR_JS = Path(__file__).resolve().parent.parent / "static" / "js" / "author" / "live.js"
WORDS = ("the", "a", "dog", "cat", "chef", "rain", "bread", "oven", "teacher", "bus", "storm", "garden", "was",
         "found", "ran", "forgot", "quickly", "never", "because", "after", "his", "her", "cold", "warm", "late",
         "early", "happy", "tired", "window", "door", "cake", "river", "friend", "city", "book", "lamp")
#: A pause at least this long, with a complete draft on screen, is one in which the author expects
#: to see the model's answer (classroom figures).
EXPECTED_ANSWER_PAUSE = 1.0
FIELDS = ("prompt", "choice_0", "choice_1", "choice_2", "choice_3")


def page_debounce_ms() -> int:
    """The debounce the authoring page waits after a keystroke before it sends a draft."""
    match = re.search(r"\bDEBOUNCE_MS\s*=\s*(\d+)\s*;", AUTHOR_JS.read_text(encoding="utf-8"))
    if match is None:
        raise RuntimeError(f"no DEBOUNCE_MS constant in {AUTHOR_JS}")
    return int(match.group(1))


class Typist:
    """Keystroke timing of a real typist: lognormal gaps, pauses between words and between fields."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def key_gap(self) -> float:
        return min(1.2, self.rng.lognormvariate(math.log(0.18), 0.45))

    def word_pause(self) -> float:
        """After a space: now and then a thinking pause (1-3 s), often a short one, mostly none."""
        draw = self.rng.random()
        if draw < 0.1:
            return self.rng.uniform(1.0, 3.0)
        return self.rng.uniform(0.2, 0.8) if draw < 0.35 else 0.0

    def field_pause(self) -> float:
        return self.rng.uniform(1.0, 3.0)  # reading the prediction, choosing what to change

    def words(self, low: int, high: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(low, high)))

    def edit(self, text: str) -> list[str]:
        """The field's text after each keystroke: delete the last word or not, then type 1-2 words."""
        states, words = [], text.split(" ")
        if len(words) > 3 and self.rng.random() < 0.5:
            for _ in range(len(words[-1]) + 1):  # backspaces
                text = text[:-1]
                states.append(text)
        for _ in range(self.rng.randint(1, 2)):
            for char in " " + self.rng.choice(WORDS):
                text += char
                states.append(text)
        return states


@dataclass
class Pause:
    """The author stopped typing from ``start`` (the last keystroke) to ``end`` with draft ``key`` on screen."""

    start: float
    end: float
    key: str


class Page:
    """``static/js/author/live.js`` on one open author socket, with the figures the benchmarks read.

    Attributes: ``sent`` (seq -> (time sent, draft key)), ``answered_at`` (seq -> arrival of its
    prediction), ``answers`` ((arrival, draft key) of every prediction), ``resumed_at`` (seq -> the
    first keystroke after it was sent), ``pauses``, ``statuses`` (count per state), ``errors`` and
    ``stale`` (predictions that arrived after a newer draft was sent).
    """

    def __init__(self, socket, *, debounce: float, answer: int | None = None) -> None:
        self.socket, self.debounce = socket, debounce
        self.fields = dict.fromkeys(FIELDS, "")
        self.answer = answer
        self.seq = 0
        self.in_flight: tuple[int, str] | None = None
        self.last_answered: str | None = None
        self.last_keystroke = time.perf_counter()
        self.timer: asyncio.TimerHandle | None = None
        self.sent: dict[int, tuple[float, str]] = {}
        self.answered_at: dict[int, float] = {}
        self.answers: list[tuple[float, str]] = []
        self.resumed_at: dict[int, float] = {}
        self.pauses: list[Pause] = []
        self.statuses: dict[str, int] = {}
        self.errors: list[str] = []
        self.stale = 0
        self.answer_seen = asyncio.Event()

    def fill(self, prompt: str, choices: tuple[str, ...] | list[str]) -> None:
        self.fields = dict(zip(FIELDS, (prompt, *choices), strict=True))

    def key(self) -> str | None:
        """What the model and the coach read (the four fields and the marked answer); None if incomplete."""
        values = [self.fields[name].strip() for name in FIELDS]
        return json.dumps([values, self.answer]) if all(values) else None

    def keystroke(self) -> None:
        """A key was pressed: the draft goes out after the debounce unless another key comes first."""
        self.last_keystroke = time.perf_counter()
        if self.seq and self.seq not in self.resumed_at:
            self.resumed_at[self.seq] = self.last_keystroke
        if self.timer is not None:
            self.timer.cancel()
        self.timer = asyncio.get_running_loop().call_later(self.debounce, lambda: asyncio.ensure_future(self.send()))

    async def send(self) -> int | None:
        """Send the draft on screen by the page's rules; its seq, or None when nothing was sent."""
        key = self.key()
        if key is None or key == self.last_answered or (self.in_flight and self.in_flight[1] == key):
            return None
        self.seq += 1
        self.in_flight = (self.seq, key)
        self.sent[self.seq] = (time.perf_counter(), key)
        self.answer_seen.clear()
        values = [self.fields[name].strip() for name in FIELDS]
        await self.socket.send(json.dumps({"type": "draft", "prompt": values[0], "choices": values[1:],
                                           "answer": self.answer, "seq": self.seq}))
        return self.seq

    async def pause(self, seconds: float) -> None:
        """The author stops typing for ``seconds``; a long one with a complete draft is recorded."""
        key, start = self.key(), self.last_keystroke
        await asyncio.sleep(seconds)
        if key is not None and seconds >= EXPECTED_ANSWER_PAUSE:
            self.pauses.append(Pause(start=start, end=time.perf_counter(), key=key))

    async def type(self, name: str, states: list[str], typist: Typist) -> None:
        """Type into field ``name`` through ``states`` (its text after each key), with the typist's gaps."""
        for text in states:
            await asyncio.sleep(typist.key_gap())
            self.fields[name] = text
            self.keystroke()
            if text.endswith(" "):
                await self.pause(typist.word_pause())

    async def read(self) -> None:
        """Follow the socket's messages as the page does (run as a task while the page is open)."""
        async for raw in self.socket:
            now, message = time.perf_counter(), json.loads(raw)
            kind, seq = message.get("type"), message.get("seq")
            if kind == "prediction" and seq in self.sent:
                self.answered_at[seq] = now
                self.answers.append((now, self.sent[seq][1]))
                self.last_answered = self.sent[seq][1]
                self.stale += seq < self.seq  # the author already moved on
                if self.in_flight and self.in_flight[0] == seq:
                    self.in_flight = None
                self.answer_seen.set()
            elif kind == "status":
                state = message.get("state", "?")
                self.statuses[state] = self.statuses.get(state, 0) + 1
                if state != "loading" and self.in_flight and self.in_flight[0] == seq:
                    self.in_flight = None  # no answer is coming: the next edit may send it again
            elif kind == "error":
                self.in_flight = None
                self.errors.append(f"websocket error: {message.get('message', '')}")

    def latency(self, seq: int) -> float:
        """Seconds from sending draft ``seq`` to its prediction."""
        return self.answered_at[seq] - self.sent[seq][0]

    async def wait_for(self, seq: int, timeout: float) -> bool:
        """Wait until draft ``seq`` is answered; False after ``timeout`` seconds."""
        deadline = time.perf_counter() + timeout
        while seq not in self.answered_at:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return False
            try:
                await asyncio.wait_for(self.answer_seen.wait(), timeout=remaining)
            except TimeoutError:
                return False
            self.answer_seen.clear()
        return True


class OpenPage:
    """``async with OpenPage(url, origin, cookie, debounce=...) as page``: the author socket and its reader."""

    def __init__(self, url: str, origin: str, cookie: str, *, debounce: float, answer: int | None = None,
                 open_timeout: float = 60) -> None:
        self.url, self.origin, self.cookie = url, origin, cookie
        self.debounce, self.answer, self.open_timeout = debounce, answer, open_timeout

    async def __aenter__(self) -> Page:
        from websockets.asyncio.client import connect

        self.connection = await connect(self.url, origin=self.origin, additional_headers={"Cookie": self.cookie},
                                        compression=None, proxy=None, open_timeout=self.open_timeout)
        self.page = Page(self.connection, debounce=self.debounce, answer=self.answer)
        self.reader = asyncio.ensure_future(self.page.read())
        return self.page

    async def __aexit__(self, *exc) -> None:
        if self.page.timer is not None:
            self.page.timer.cancel()
        self.reader.cancel()
        await self.connection.close()
