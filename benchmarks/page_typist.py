"""What the authoring page and its author do, for the benchmarks that drive the author websocket.

``page_debounce_ms`` reads the page's debounce from static/js/author.js; ``Author`` is one
websocket connection that remembers when each draft was sent and answered; ``Typist`` draws a
real typist's keystroke gaps and pauses; ``Page`` applies the page's send rule (after a pause of
the debounce, send the draft if it changed since the last one sent).
"""
from __future__ import annotations

import asyncio
import json
import math
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

AUTHOR_JS = Path(__file__).resolve().parent.parent / "static" / "js" / "author.js"
WORDS = ["very", "quickly", "then", "again", "slowly", "the", "red", "small", "and", "not", "after", "school",
         "always", "never", "warm", "dog", "kitchen", "before", "happily", "soon"]


def page_debounce_ms() -> int:
    """The debounce the authoring page waits after a keystroke before it sends a draft."""
    match = re.search(r"\bDEBOUNCE_MS\s*=\s*(\d+)\s*;", AUTHOR_JS.read_text(encoding="utf-8"))
    if match is None:
        raise RuntimeError(f"no DEBOUNCE_MS constant in {AUTHOR_JS}")
    return int(match.group(1))


def draft_message(prompt: str, choices: tuple[str, ...], seq: int) -> str:
    return json.dumps({"type": "draft", "prompt": prompt, "choices": list(choices), "answer": 0, "seq": seq})


class Author:
    """One websocket connection; remembers when each draft was sent and which got answered."""

    def __init__(self, url: str, origin: str, session_key: str) -> None:
        self.url, self.origin, self.session_key = url, origin, session_key
        self.sent: dict[int, float] = {}
        self.answered_at: dict[int, float] = {}
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
                self.answered_at[seq] = now
                self.stale += seq < max(self.sent)  # the author already moved on
                self.answer_seen.set()
            elif kind == "status":
                self.statuses[message.get("state", "?")] = self.statuses.get(message.get("state", "?"), 0) + 1
            elif kind == "error":
                self.errors.append(message.get("message", ""))

    async def send(self, seq: int, prompt: str, choices: tuple[str, ...]) -> None:
        self.answer_seen.clear()
        self.sent[seq] = time.perf_counter()
        await self.connection.send(draft_message(prompt, choices, seq))

    def latency(self, seq: int) -> float:
        return self.answered_at[seq] - self.sent[seq]

    async def wait_for(self, seq: int, timeout: float) -> bool:
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


class Typist:
    """Keystroke timing of a real typist: lognormal gaps (median 180 ms), pauses between words and fields."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def key_gap(self) -> float:
        return min(1.2, self.rng.lognormvariate(math.log(0.18), 0.45))

    def word_pause(self) -> float:
        return self.rng.uniform(0.2, 0.8) if self.rng.random() < 0.35 else 0.0

    def field_pause(self) -> float:
        return self.rng.uniform(1.0, 3.0)  # reading the prediction, choosing what to change

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
class Page:
    """The authoring page's send rule: after a pause of the debounce, send the draft if it changed."""

    author: Author
    prompt: str
    choices: list[str]
    seq: int = 0
    last_sent: tuple | None = None
    resumed_at: dict[int, float] = field(default_factory=dict)  # seq -> next keystroke after sending it

    def keystroke(self) -> None:
        if self.seq and self.seq not in self.resumed_at:
            self.resumed_at[self.seq] = time.perf_counter()

    async def pause(self, seconds: float, debounce: float) -> None:
        if seconds < debounce:
            await asyncio.sleep(seconds)
            return
        await asyncio.sleep(debounce)
        draft = (self.prompt, tuple(self.choices))
        if draft != self.last_sent:  # the page never re-sends an unchanged draft
            self.seq += 1
            self.last_sent = draft
            await self.author.send(self.seq, *draft)
        await asyncio.sleep(seconds - debounce)
