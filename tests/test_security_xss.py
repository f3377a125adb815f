"""User text is escaped wherever it is shown: a browser test with script payloads.

A student's question carries ``<script>`` and ``onerror`` payloads in its prompt and in a
completion; real Chromium opens every page that shows them (the student's dashboard, the
instructor's round table; the annotation app's passage questions are to be added as its
pages land) and no
payload may run: the marker the scripts would set stays unset, and the text is shown as text.
"""
import os
from pathlib import Path

import pytest
from django.urls import reverse

from collector import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM = "/usr/bin/chromium"
SCRIPT = "<script>window.__xss = 'prompt'</script>"
IMG = "<img src=x onerror=\"window.__xss = 'choice'\">"
PAGES = [
    ("student", "collector:dashboard", []),
    ("instructor", "collector:round_detail", ["round"]),
]


@pytest.fixture
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("needs Chromium at /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's loop lives in this thread
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield browser
        browser.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def _signed_in_page(browser, live_server, user):
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    context = browser.new_context()
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "url": live_server.url}])
    return context.new_page()


def test_script_payloads_in_questions_never_run(browser, live_server, student, instructor, round_, fake_model):
    services.question_submit(user=student, round_id=round_.pk, prompt=f"The cat {SCRIPT} sat. It",
                             choices=[f"purred {IMG}", "barked loudly.", "flew away.", "paid the rent."],
                             correct_index=0)
    users = {"student": student, "instructor": instructor}
    for role, name, args in PAGES:
        page = _signed_in_page(browser, live_server, users[role])
        url = live_server.url + reverse(name, args=[round_.pk for _ in args])
        response = page.goto(url)
        assert response.status == 200, (name, response.status)
        page.wait_for_load_state("load")
        assert page.evaluate("window.__xss") is None, f"a payload ran on {name}"
        text = page.inner_text("body")
        assert "<script>" in text or "window.__xss" in text, f"the prompt is not shown as text on {name}"
        page.context.close()
