"""End to end in real Chromium at 1366x900: feedback where the person is looking (issue 30 §1, §3).

- The dataset release form: a refusal is shown beside the form, which keeps the choices and says
  what to choose on the page, not a command-line flag; the cursor goes to it.
- The round settings and create-round forms: every problem at once in a summary at the top that
  has the focus and links to each field.
- A pasted 5,000-character prompt is neither cut nor saved: a counter says it is too long and the
  server refuses it.
- A verdict about an older draft greys out while "updating…" shows.
- The round's import page: preview, bad rows by line, import.

Screenshot: round-import (docs/img/ with STUMPER_SCREENSHOTS=1).
"""
import contextlib
import json
import re
from pathlib import Path

import pytest
from django.utils import timezone

from accounts.models import User
from accounts.services import user_create
from collector.models import Question, Round
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
CODAH = ("i\tHe kicked the bucket. He\tdied.\tlives.\tdances.\tsings.\t0\n"
         "n\tNo one came to the party. The room was\tfull.\tempty.\tloud.\tbright.\t1\n"
         "\tShe smiled at the news. She\tfrowned.\twas glad.\twept.\tslept.\t1\n")


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class FeedbackEndToEndTests(BrowserTestCase):
    def setUp(self) -> None:
        prof = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        self.course = course_create(owner=prof, name="NLP 101")
        model = model_version_register(name="tiny-bert-e2e", kind="multiple_choice", path=str(self.model_dir),
                                       revision="e2e")
        self.round = round_create(course=self.course, name="idioms", title="Idioms and negation", live_model=model,
                                  closes_at=timezone.now() + timezone.timedelta(days=2),
                                  categories=["idioms", "negation", "other"])
        self.student = student_register(username="alice", password=PASSWORD, join_code=self.course.join_code)

    def signed_in(self, username: str):
        page = self.new_page(VIEWPORT, TIMEOUT_MS)
        self.log_in(page, username, PASSWORD)
        return page

    @staticmethod
    def in_viewport(page, selector: str) -> bool:
        box = page.locator(selector).first.bounding_box()  # relative to the viewport
        return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT["height"]

    @staticmethod
    def focused(page, expected: str) -> str:
        """The focused element's id, once it is ``expected`` or after 5 s: the page's modules move the
        focus after the parser has added the error summary that the test waited for."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        with contextlib.suppress(PlaywrightTimeout):  # the caller's assertion says what was focused instead
            page.wait_for_function("(id) => document.activeElement && document.activeElement.id === id",
                                   arg=expected, timeout=5000)
        return page.evaluate("document.activeElement.id")

    def test_the_release_form_says_why_beside_itself_and_keeps_the_choices(self) -> None:
        # Written, not yet validated (created directly: no model runs in the test process).
        Question.objects.create(round=self.round, author=self.student, prompt=PROMPT, choices=CHOICES, correct_index=0)
        page = self.signed_in("prof")
        page.goto(self.url("collector:round_detail", self.round.pk))
        form = page.locator("form[action$='release.zip']")
        form.get_by_label("Authors").select_option("usernames")
        form.get_by_label("Validation agreement").check()
        form.get_by_role("button", name="Download dataset release (.zip)").click()
        page.wait_for_url(re.compile(r".*#release-errors-round$"))
        page.wait_for_function("() => document.activeElement.id === 'release-errors-round'")
        assert self.in_viewport(page, "#release-errors-round")
        summary = page.locator("#release-errors-round").inner_text()
        assert "no accepted questions yet (1 awaiting validation)" in summary
        assert "Choose “All submitted” under Questions." in summary and "--status" not in summary
        assert page.locator("#release-status-error-round").is_visible()
        assert form.get_by_label("Authors").input_value() == "usernames"
        assert form.get_by_label("Validation agreement").is_checked()
        assert page.locator(".message").count() == 0  # nothing at the top of the page, off screen

        # A licence typo: shown at the licence, the typo kept for correcting; the link focuses it.
        form.get_by_label("Questions").select_option("all")
        form.get_by_label("License (a Hugging Face Hub license id)").fill("cc-by-4")
        form.get_by_role("button", name="Download dataset release (.zip)").click()
        page.wait_for_function("() => document.activeElement.id === 'release-errors-round'")
        assert "Did you mean cc-by-4.0" in page.locator("#release-license-error-round").inner_text()
        assert form.get_by_label("Questions").input_value() == "all"
        assert form.get_by_label("License (a Hugging Face Hub license id)").input_value() == "cc-by-4"
        page.locator("#release-errors-round").get_by_role("link", name="License").click()
        assert self.focused(page, "release-license-round") == "release-license-round"
        assert self.console_errors == []

    def test_refused_settings_and_new_rounds_list_every_problem_with_the_focus_on_them(self) -> None:
        page = self.signed_in("prof")
        page.goto(self.url("collector:round_settings", self.round.pk))
        page.locator("#id_epochs").fill("0")
        page.locator("#id_validations_required").fill("0")
        page.locator("#id_opens_at").fill("2030-01-02T00:00")
        page.locator("#id_closes_at").fill("2030-01-01T00:00")
        page.get_by_role("button", name="Save settings").click()
        page.wait_for_load_state()
        page.wait_for_function("() => document.activeElement.id === 'error-summary'")
        assert self.in_viewport(page, "#error-summary")
        links = page.locator("#error-summary a").all_inner_texts()
        assert {"Epochs", "Agreeing validators needed to accept"} <= set(links), links
        page.locator("#error-summary").get_by_role("link", name="Epochs").click()
        assert self.focused(page, "id_epochs") == "id_epochs"
        assert Round.objects.get(pk=self.round.pk).closes_at is not None  # nothing saved

        # Creating a round: the name taken, the dates in the wrong order, a negative weight, all at once.
        page.goto(self.url("collector:course_detail", self.course.pk))
        page.locator("#id_name").fill("idioms")
        page.locator("#id_opens_at").fill("2030-01-02T00:00")
        page.locator("#id_closes_at").fill("2030-01-01T00:00")
        page.locator("#id_weight_live").fill("-1")
        page.get_by_role("button", name="Create round").click()
        page.wait_for_load_state()
        page.wait_for_function("() => document.activeElement.id === 'error-summary'")
        assert self.in_viewport(page, "#error-summary")
        assert page.locator("#error-summary li").count() == 3
        assert set(page.locator("#error-summary a").all_inner_texts()) == {
            "Name", "Closes", "Credit for fooling the live model"}
        assert Round.objects.count() == 1
        assert self.console_errors == []

    def test_a_pasted_long_prompt_is_counted_and_refused_never_cut(self) -> None:
        page = self.signed_in("alice")
        page.goto(self.url("collector:round_write", self.round.pk))
        counter = page.locator("#id_prompt-char-count")
        page.get_by_label("Prompt").fill("the cake " * 52)  # 467 characters: near the limit
        assert counter.inner_text() == "467 of 500 characters"
        page.get_by_label("Prompt").fill("a" * 5000)
        assert len(page.get_by_label("Prompt").input_value()) == 5000  # not cut to 500
        assert counter.inner_text().startswith("5000 of 500 characters: 4500 too many.")
        assert page.get_by_label("Prompt").get_attribute("aria-invalid") == "true"
        for position, text in enumerate(CHOICES):
            page.get_by_label(f"Completion {'ABCD'[position]}", exact=True).fill(text)
        page.get_by_label("Completion D", exact=True).press("Alt+1")
        page.get_by_role("button", name="Submit question").click()
        page.wait_for_selector("#form-errors")
        assert "The prompt is too long (5000 characters; at most 500)." in page.locator("#form-errors").inner_text()
        assert self.focused(page, "id_prompt") == "id_prompt"
        counter.wait_for(state="visible", timeout=5000)  # shown by the page's module once it has run
        assert len(page.get_by_label("Prompt").input_value()) == 5000
        assert Question.objects.count() == 0

    def test_a_verdict_about_an_older_draft_greys_out_while_updating(self) -> None:
        page = self.signed_in("alice")
        sockets, drafts = [], []

        def serve(ws) -> None:  # the author socket, answered by the test
            sockets.append(ws)
            ws.on_message(lambda message: drafts.append(json.loads(message)))

        page.route_web_socket(re.compile(r".*/ws/author/\d+/$"), serve)
        page.goto(self.url("collector:round_write", self.round.pk))
        page.get_by_label("Prompt").fill(PROMPT)
        for position, text in enumerate(CHOICES):
            page.get_by_label(f"Completion {'ABCD'[position]}", exact=True).fill(text)
        page.get_by_label("Completion D", exact=True).press("Alt+1")
        page.wait_for_function("() => document.querySelector('#verdict').textContent.length > 0")
        page.wait_for_timeout(600)
        sockets[-1].send(json.dumps({"type": "prediction", "probs": [0.1, 0.1, 0.7, 0.1], "predicted": 2,
                                     "model_version": "tiny-bert-e2e", "seq": drafts[-1]["seq"],
                                     "coach": {"warnings": []}}))
        page.wait_for_selector("#verdict.verdict-fooled")
        colour = "() => getComputedStyle(document.getElementById('verdict')).color"
        muted = page.evaluate("() => getComputedStyle(document.getElementById('updating')).color")
        bright = page.evaluate(colour)
        assert bright != muted

        # An edit: the old verdict stays, greyed, beside "updating…" until the new guess arrives.
        page.get_by_label("Completion B", exact=True).fill("was not hungry at all .")
        page.locator("#updating").wait_for(state="visible")
        assert "The model is fooled" in page.locator("#verdict").inner_text()
        assert page.evaluate(colour) == muted
        page.wait_for_timeout(600)
        sockets[-1].send(json.dumps({"type": "prediction", "probs": [0.1, 0.1, 0.7, 0.1], "predicted": 2,
                                     "model_version": "tiny-bert-e2e", "seq": drafts[-1]["seq"],
                                     "coach": {"warnings": []}}))
        page.locator("#updating").wait_for(state="hidden")
        assert page.evaluate(colour) == bright
        assert self.console_errors == []

    def test_questions_are_previewed_then_imported_from_the_round_page(self) -> None:
        page = self.signed_in("prof")
        page.goto(self.url("collector:round_detail", self.round.pk))
        page.get_by_role("link", name="Import questions").click()
        page.wait_for_url(self.url("collector:round_import", self.round.pk))

        # A bad row: every problem by line, focus on the list, nothing stored.
        bad = CODAH + "x\tHe ran. He\tsat.\tstood.\tlay.\tjumped.\t7\n"
        page.get_by_label("File").set_input_files(files=[{"name": "bad.tsv", "mimeType": "text/plain",
                                                           "buffer": bad.encode()}])
        page.get_by_role("button", name="Preview").click()
        page.wait_for_function("() => document.activeElement.id === 'import-problems'")
        problems = page.locator("#import-problems").inner_text()
        assert "line 4: unknown category letter(s) 'x'" in problems and "got '7'" in problems
        assert Question.objects.count() == 0

        page.get_by_label("File").set_input_files(files=[{"name": "codah.tsv", "mimeType": "text/plain",
                                                           "buffer": CODAH.encode()}])
        page.get_by_role("button", name="Preview").click()
        page.wait_for_function("() => document.activeElement.id === 'preview-heading'")
        assert page.locator("#preview-heading").inner_text() == "Preview: 3 questions in codah.tsv"
        assert page.locator("#import-preview tbody tr").count() == 3
        assert Question.objects.count() == 0
        self.screenshot(page, "round-import", full_page=True)
        page.get_by_role("button", name="Import 3 questions").click()
        page.wait_for_url(self.url("collector:round_detail", self.round.pk))
        assert "Imported 3 questions from codah.tsv" in page.locator(".message").inner_text()
        assert Question.objects.filter(round=self.round, source="imported").count() == 3
        assert self.console_errors == []
