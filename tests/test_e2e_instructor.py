"""End to end in real Chromium at 1366x900: the instructor's inbox and round page (scoring start,
cancel and resume without losing the place), and the authoring page's details (the "updating…"
cue, errors naming "Completion B" and focusing it, the running tally, the verdict in view).

Screenshots: inbox, round-table, round-page and authoring (docs/img/ with STUMPER_SCREENSHOTS=1).
"""
import json
import re
from pathlib import Path

import pytest
from django.test import override_settings
from django.utils import timezone

from accounts.models import User
from accounts.services import user_create
from collector.models import Appeal, Prediction, Question, ScoringRun
from collector.services.rounds import round_create
from courses.services import course_create, student_register
from modelhub.services import model_version_register
from tests.browser import CHROMIUM, BrowserTestCase

pytestmark = pytest.mark.browser

PASSWORD = "a-long-test-password-42"
VIEWPORT = {"width": 1366, "height": 900}
TIMEOUT_MS = 30_000
PROMPT = "the man ate the whole cake . he"
CHOICES = ["was very hungry .", "was not hungry .", "gave the cake to a dog .", "is good at math ."]


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
# Queued runs stay queued (no worker in this test), instead of training inside the request.
@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
class InstructorPagesEndToEndTests(BrowserTestCase):
    def setUp(self) -> None:
        self.prof = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        course = course_create(owner=self.prof, name="NLP 101")
        model = model_version_register(name="tiny-bert-e2e", kind="multiple_choice",
                                                path=str(self.model_dir), revision="e2e")
        self.round = round_create(
            course=course, name="idioms", title="Idioms and negation", live_model=model,
            instructions="Write a prompt and four endings; mark the right one.\n\nTry idioms and negation: the model "
                         "reads them literally.\n\nAvoid giving the answer away by its length.",
            closes_at=timezone.now() + timezone.timedelta(days=2), categories=["idioms", "negation", "other"],
        )
        self.student = student_register(username="alice", password=PASSWORD, join_code=course.join_code)
        for i in range(30):
            status = "review" if i < 3 else "appealed" if i == 3 else "pending"
            question = Question.objects.create(
                round=self.round, author=self.student, prompt=f"Question {i}: the man ate the whole cake . he",
                choices=[f"was very hungry {i} .", "was not hungry .", "gave the cake to a dog .", "is good ."],
                correct_index=0, categories=["negation"] if i % 2 else ["idioms"], status=status,
            )
            Prediction.objects.create(question=question, status="done", model_version=model, probs=[.1, .2, .3, .4],
                                      predicted_index=3 if i % 3 else 0, fooled=bool(i % 3), computed_at=timezone.now())
            if status == "appealed":
                Appeal.objects.create(question=question, author=self.student, message="The key is right.")

    def signed_in(self, username: str):
        page = self.new_page(VIEWPORT, TIMEOUT_MS)
        self.log_in(page, username, PASSWORD)
        return page

    @staticmethod
    def in_viewport(page, selector: str) -> bool:
        box = page.locator(selector).first.bounding_box()  # relative to the viewport
        return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT["height"]

    def test_inbox_then_round_page_start_cancel_resume_in_place(self) -> None:
        page = self.signed_in("prof")
        page.wait_for_url(self.url("inbox:inbox"))
        reviews = page.get_by_test_id("inbox-reviews")
        assert "3 questions to review" in reviews.inner_text()
        assert "Appeal by alice" in page.get_by_test_id("inbox-appeals").inner_text()
        assert "Idioms and negation closes" in page.get_by_test_id("inbox-closing").inner_text()
        self.screenshot(page, "inbox")
        page.get_by_test_id("inbox-closing").get_by_role("link").first.click()
        page.wait_for_url(self.url("collector:round_detail", self.round.pk))

        # A compact table: 25 one-line rows, and the filters stay on the second page.
        assert page.locator(".question-table tbody tr").count() == 25
        page.get_by_label("Search prompts").fill("Question")
        page.get_by_role("button", name="Filter").click()
        page.wait_for_load_state()
        page.get_by_role("link", name="Next").click()
        page.wait_for_load_state()
        assert "q=Question" in page.url and "page=2" in page.url
        assert page.locator(".question-table tbody tr").count() == 5
        assert page.get_by_label("Search prompts").input_value() == "Question"
        page.goto(self.url("collector:round_detail", self.round.pk))
        # At 1366 px the table fits, time column included: nothing to scroll sideways.
        table = page.locator(".question-table")
        assert table.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth")
        assert page.locator(".question-table th").last.inner_text() == "Time"
        self.screenshot(page, "round-table", full_page=True)

        # Start: the page comes back at the scoring section, the new run's progress bar in view.
        page.locator('.scoring-form[data-kind="cross_validation"] button').click()
        page.wait_for_load_state()
        assert page.url.endswith("#scoring")
        assert page.evaluate("window.scrollY") > 0
        card = '.scoring-card[data-kind="cross_validation"]'
        assert self.in_viewport(page, f"{card} .progress-track")
        assert self.in_viewport(page, "[data-testid=scoring-message]")
        assert "queued" in page.get_by_test_id("scoring-message").inner_text()
        start = page.locator('.scoring-form[data-kind="cross_validation"] button')
        assert start.is_disabled()
        self.screenshot(page, "round-page")

        # Cancel, in place; the start button is enabled again and the run can be resumed.
        run = ScoringRun.objects.get()
        page.locator(f"{card} [data-field=cancel-form] button").click()
        page.wait_for_load_state()
        assert page.url.endswith("#scoring") and page.evaluate("window.scrollY") > 0
        assert f"Run {run.pk} cancelled" in page.get_by_test_id("scoring-message").inner_text()
        assert ScoringRun.objects.get().status == "cancelled"
        assert not start.is_disabled()
        page.locator(f"{card} [data-field=resume-form] button").click()
        page.wait_for_load_state()
        assert ScoringRun.objects.get().status == "queued"
        page.wait_for_function("() => document.querySelector('.scoring-form[data-kind=cross_validation] button').disabled")
        assert self.console_errors == []

    def test_authoring_cue_tally_errors_and_verdict_in_view(self) -> None:
        page = self.signed_in("alice")
        sockets, drafts = [], []

        def serve(ws) -> None:  # the author socket, answered by the test
            sockets.append(ws)
            ws.on_message(lambda message: drafts.append(json.loads(message)))

        def answer(draft, predicted: int) -> None:
            probs = [0.1] * 4
            probs[predicted] = 0.7
            sockets[-1].send(json.dumps({"type": "prediction", "probs": probs, "predicted": predicted,
                                         "model_version": "tiny-bert-e2e", "seq": draft["seq"],
                                         "coach": {"warnings": []}}))

        page.route_web_socket(re.compile(r".*/ws/author/\d+/$"), serve)
        page.goto(self.url("collector:round_write", self.round.pk))
        tally = page.get_by_test_id("tally").inner_text()
        assert "Your questions in this round: 30 · fooled the model: 20 · credit: 20" in tally, tally

        page.get_by_label("Prompt").fill(PROMPT)
        for position, text in enumerate(CHOICES):
            page.get_by_label(f"Completion {'ABCD'[position]}", exact=True).fill(text)
        page.get_by_label("Completion D", exact=True).press("Alt+1")
        page.wait_for_function("() => document.querySelector('#verdict').textContent.length > 0")
        page.wait_for_timeout(600)
        answer(drafts[-1], 2)
        page.wait_for_selector("#verdict.verdict-fooled")
        assert page.locator("#updating").is_hidden()

        # Editing makes the shown guess stale at once: "updating…" until the new answer arrives.
        page.get_by_label("Completion B", exact=True).fill("was not hungry at all .")
        page.locator("#updating").wait_for(state="visible")
        assert page.locator("#updating").inner_text() == "updating…"
        page.wait_for_timeout(600)
        answer(drafts[-1], 0)
        page.wait_for_selector("#verdict.verdict-not-fooled")
        page.locator("#updating").wait_for(state="hidden")

        # The verdict is on screen without scrolling at 1366x900.
        page.evaluate("window.scrollTo(0, 0)")
        assert self.in_viewport(page, "#verdict"), page.locator("#verdict").bounding_box()
        self.screenshot(page, "authoring")

        # A blank completion: the error names it as labelled and it gets the focus.
        page.get_by_label("Completion B", exact=True).fill("   ")
        page.keyboard.press("Control+Enter")
        page.wait_for_selector("#form-errors")
        assert "Completion B: Completion B is empty." in page.locator("#form-errors").inner_text()
        assert page.evaluate("document.activeElement.id") == "id_choice_1"
        assert self.console_errors == []
