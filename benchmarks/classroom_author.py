"""One simulated student of the classroom benchmark: signs in, types with the page's rules, submits.

``Author`` holds the student's HTTP session (sign-in and the form POST of a question) and, once it
has typed, its ``Page`` (``page_typist``: the page's send rules and what was sent, answered and
paused); ``run_author`` types questions with the typist's timing for the given time over a real
websocket.
"""
from __future__ import annotations

import asyncio
import random
import time
import uuid
from dataclasses import dataclass, field

from page_typist import OpenPage, Page, Typist, page_debounce_ms

PASSWORD = "classroom-pass-123!"


@dataclass
class Author:
    index: int
    base: str
    round_id: int
    session: object = None
    sign_in_seconds: float | None = None
    errors: list[str] = field(default_factory=list)
    accepted: list[str] = field(default_factory=list)
    page: Page | None = None

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


async def write_questions(author: Author, page: Page, until: float, typist: Typist) -> None:
    loop, rng = asyncio.get_running_loop(), typist.rng
    while time.perf_counter() < until:
        page.fill("", ("", "", "", ""))
        page.answer = None
        await page.type("prompt", _typed(f"{typist.words(7, 11)} {author.index}"), typist)
        for position in range(4):
            await page.pause(typist.field_pause())
            await page.type(f"choice_{position}", _typed(typist.words(3, 5) + "."), typist)
        await page.pause(typist.field_pause())
        page.answer = rng.randrange(4)
        page.keystroke()
        await page.pause(typist.field_pause())
        for _ in range(rng.randint(1, 2)):  # revise a completion to fool the model
            name = f"choice_{rng.randrange(4)}"
            await page.type(name, typist.edit(page.fields[name]), typist)
            await page.pause(typist.field_pause())
        # A question started before the end is finished and submitted, as a student would.
        fields = {**page.fields, "answer": str(page.answer), "categories": "other"}
        await loop.run_in_executor(None, author.submit, fields)
        await asyncio.sleep(rng.uniform(0.5, 1.5))


def _typed(text: str) -> list[str]:
    """A field's text after each key while typing ``text`` into it from empty."""
    return [text[: end] for end in range(1, len(text) + 1)]


async def run_author(author: Author, seconds: float, seed: int) -> None:
    cookie = "; ".join(f"{c.name}={c.value}" for c in author.session.cookies)
    url = author.base.replace("http://", "ws://") + f"/ws/author/{author.round_id}/"
    try:
        async with OpenPage(url, author.base, cookie, debounce=page_debounce_ms() / 1000) as page:
            author.page = page
            await write_questions(author, page, time.perf_counter() + seconds, Typist(random.Random(seed)))
            await asyncio.sleep(3)  # the last answers
    except Exception as error:  # a refused or dropped socket is an error of the run
        author.errors.append(f"websocket: {type(error).__name__}: {error}")
