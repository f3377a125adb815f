"""User text is escaped wherever it is shown: a browser test with script payloads.

A student's CODAH question carries ``<script>`` and ``onerror`` payloads in its prompt and in a
completion; a crowdworker's passage question carries them in its question text, its answer span
(which the paragraph contains), the article title, a half-typed draft and a second-pass flag.
Real Chromium opens every page that shows them (the student's dashboard and the instructor's
round table; the crowdworker's authoring page, the second-pass page, the project owner's
dashboard, flags and paragraphs, and the admin) and no payload may run: the marker the scripts
would set stays unset, and the text is shown as text.

The evaluation report is not visited: it shows counts, scores and single words of the
questions (lexical features), never a question's text.
"""
import functools
import os
from pathlib import Path

import pytest
from django.urls import reverse

from annotation.services.authoring import question_add, session_draft_save, session_start_next, session_submit
from annotation.services.second_pass import second_pass_answer_save
from annotation.tests.factories import add_paragraphs, answer, make_project
from collector.services.questions import question_submit
from collector.tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM = "/usr/bin/chromium"
SCRIPT = "<script>window.__xss = 'prompt'</script>"
IMG = "<img src=x onerror=\"window.__xss = 'choice'\">"
PAGES = [
    ("student", "collector:dashboard", []),
    ("instructor", "collector:round_detail", ["round"]),
]
PASSAGE_QUESTION = f"Where {SCRIPT} does the gate stand?"
CONTEXT = f"The Nile flows north to the sea. Its old gate {IMG} stands at Khartoum, where the two branches meet."
TITLE = f"Nile {IMG}"
FLAG_REASON = f"The gate is not the place {SCRIPT}"


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


def _check_page(browser, live_server, user, path: str, *shown: str, wait_for: str | None = None) -> None:
    """Open ``path`` as ``user``: no payload runs and every text of ``shown`` appears as text."""
    page = _signed_in_page(browser, live_server, user)
    try:
        response = page.goto(live_server.url + path)
        assert response.status == 200, (path, response.status)
        page.wait_for_load_state("load")
        if wait_for:
            page.locator(wait_for).first.wait_for()  # drawn by the page's JavaScript from its JSON
        assert page.evaluate("window.__xss") is None, f"a payload ran on {path}"
        text = page.inner_text("body")
        for expected in shown:
            assert expected in text, f"{expected!r} is not shown as text on {path}"
    finally:
        page.context.close()


def test_script_payloads_in_questions_never_run(browser, live_server, student, instructor, round_, fake_model):
    question_submit(user=student, round_id=round_.pk, prompt=f"The cat {SCRIPT} sat. It",
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


def _authoring_session(owner, worker):
    """A validation paragraph with the payloads, and ``worker``'s session on it with two questions."""
    project = make_project(owner, name="xss-nile")
    add_paragraphs(project, [CONTEXT], split="validation", title=TITLE)
    session = session_start_next(user=worker, project=project)
    question_add(session=session, user=worker, question=PASSAGE_QUESTION,
                 answer=answer(CONTEXT, IMG))
    question_add(session=session, user=worker, question="Where do the two branches meet?",
                 answer=answer(CONTEXT, "Khartoum"))
    session_draft_save(session=session, user=worker, draft={"question": f"Half {SCRIPT}"})
    return project, session


def _second_pass_session(project, reviewer):
    """``reviewer`` answers the payload question blind and flags its original answer."""
    session = session_start_next(user=reviewer, project=project, kind="second_pass")
    question = project.questions.get(question=PASSAGE_QUESTION)
    second_pass_answer_save(
        session=session, user=reviewer, question_id=question.pk, answer=answer(CONTEXT, "Khartoum"),
        flag={"proposal": "fix_answer", "reason": FLAG_REASON},
    )
    return session, question


def test_script_payloads_in_passage_questions_never_run(browser, live_server, instructor, crowdworker):
    check = functools.partial(_check_page, browser, live_server)
    project, session = _authoring_session(instructor, crowdworker)
    # The author's page while the session is open: questions, their spans and the paragraph.
    check(crowdworker, reverse("annotation:session", args=[session.pk]), PASSAGE_QUESTION, IMG,
          wait_for="#question-list li")
    session_submit(session=session, user=crowdworker)

    reviewer = make_user("reviewer", role="crowdworker")
    review, question = _second_pass_session(project, reviewer)
    # Once answered, the second-pass page shows the original answer (the payload span) too.
    check(reviewer, reverse("annotation:session", args=[review.pk]), PASSAGE_QUESTION, f"Original answer: {IMG}",
          wait_for="#review-list li")

    check(instructor, reverse("annotation:project_dashboard", args=[project.pk]))
    check(instructor, reverse("annotation:project_flags", args=[project.pk]), TITLE, PASSAGE_QUESTION, IMG,
          FLAG_REASON)
    check(instructor, reverse("annotation:project_paragraphs", args=[project.pk]), CONTEXT)

    root = make_user("root", role="instructor", is_staff=True, is_superuser=True)
    check(root, reverse("admin:annotation_spanquestion_changelist"), PASSAGE_QUESTION)
    check(root, reverse("admin:annotation_spanquestion_change", args=[question.pk]), PASSAGE_QUESTION[:40])
    check(root, reverse("admin:annotation_paragraph_changelist"), TITLE)
    check(root, reverse("admin:annotation_secondpassanswer_changelist"), PASSAGE_QUESTION[:40])
    check(root, reverse("admin:annotation_questionflag_changelist"))
