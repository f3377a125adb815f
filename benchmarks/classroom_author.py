"""One simulated student of the classroom benchmark: signs in, types with the page's rules, submits.

``Author`` holds what was sent, answered and paused; ``Page`` mirrors static/js/author.js (debounce,
never re-send the draft in flight or the one already answered); ``run_author`` types questions with a
typist's keystroke gaps and pauses for the given time over a real websocket.
"""
from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from dataclasses import dataclass, field

import numpy as np

PASSWORD = "classroom-pass-123!"
DEBOUNCE = 0.25  # author.js DEBOUNCE_MS
PAUSE = 1.0  # a pause this long is one the author expects to see the model's answer in
WORDS = ("the", "a", "dog", "cat", "chef", "rain", "bread", "oven", "teacher", "bus", "storm", "garden", "was",
         "found", "ran", "forgot", "quickly", "never", "because", "after", "his", "her", "cold", "warm", "late",
         "early", "happy", "tired", "window", "door", "cake", "river", "friend", "city", "book", "lamp")


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


