"""End to end: a student writes a question in real Chromium against a live Daphne server.

Set-up in ``tests.browser``. The live model is a tiny randomly
initialised BERT, so the websocket answers with real (if meaningless) probabilities.
"""
import json
from pathlib import Path

import pytest

from accounts.models import User
from accounts.services import user_create
from collector.models import Prediction, Question
from collector.services.rounds import round_create
from courses.services import course_create, student_register
from modelhub.services import model_version_register
from tests.browser import CHROMIUM, BrowserTestCase

pytestmark = pytest.mark.browser

PASSWORD = "a-long-test-password-42"
# Words from mlcore.testing's tiny vocabulary, so the tokenizer sees few unknown tokens.
PROMPT = "the man ate the whole cake . he"
CHOICES = ["was very hungry .", "was not hungry .", "gave the cake to a dog .", "is good at math ."]
TIMEOUT_MS = 30_000


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class AuthoringEndToEndTests(BrowserTestCase):
    def setUp(self) -> None:
        instructor = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        course = course_create(owner=instructor, name="NLP 101")
        model = model_version_register(
            name="tiny-bert-e2e", kind="multiple_choice", path=str(self.model_dir), revision="e2e"
        )
        self.round = round_create(
            course=course, name="e2e-round", title="Round one", instructions="Try to stump the model.",
            live_model=model, categories=["idioms", "negation", "other"],
        )
        self.student = student_register(username="alice", password=PASSWORD, join_code=course.join_code)
        self.open_page(TIMEOUT_MS)

    def sign_in(self) -> None:
        self.log_in(self.page, "alice", PASSWORD)
        self.page.wait_for_url(self.url("collector:dashboard"))

    def wait_for_prediction(self) -> list[int]:
        """Wait until the websocket's answer is drawn; returns the four percentages shown."""
        page = self.page
        page.wait_for_selector(".choice-row.is-pick")
        page.wait_for_selector("#verdict.verdict-fooled, #verdict.verdict-not-fooled")
        page.wait_for_function("() => !document.getElementById('author-form').classList.contains('is-stale')")
        values = page.locator(".prob-value").all_text_contents()
        return [int(value.rstrip("%")) for value in values]

    def test_student_writes_a_question_with_live_feedback(self) -> None:
        page = self.page
        self.sign_in()
        page.get_by_role("link", name="Write questions").click()
        page.wait_for_url(self.url("collector:round_write", self.round.pk))
        assert page.locator("h1").inner_text() == "Round one"
        assert page.locator("#model-name").inner_text() == "tiny-bert-e2e"

        page.get_by_label("Prompt").fill(PROMPT)
        for position, text in enumerate(CHOICES[:3]):
            page.get_by_label(f"Completion {'ABCD'[position]}", exact=True).fill(text)
        assert "Fill in all four completions" in page.locator("#verdict").inner_text()
        page.get_by_label("Completion D", exact=True).fill(CHOICES[3])

        # The model answers before any answer is marked ...
        page.wait_for_selector(".choice-row.is-pick")
        page.wait_for_selector("#verdict.verdict-unknown")
        assert "Mark the right answer" in page.locator("#verdict").inner_text()

        # ... then Alt+1 marks completion A as right and the verdict follows.
        page.get_by_label("Completion D", exact=True).press("Alt+1")
        assert page.locator("#id_answer_0").is_checked()
        percentages = self.wait_for_prediction()
        assert len(percentages) == 4 and 97 <= sum(percentages) <= 103
        picked = page.locator(".choice-row").evaluate_all(
            "rows => rows.findIndex(row => row.classList.contains('is-pick'))"
        )
        verdict = page.locator("#verdict").inner_text()
        expected = "The model is not fooled" if picked == 0 else "The model is fooled"
        assert verdict.startswith(expected), verdict
        page.get_by_label("Negation").check()

        # A reload keeps the draft (sessionStorage) and asks the model again.
        page.reload()
        assert page.get_by_label("Prompt").input_value() == PROMPT
        assert page.get_by_label("Completion D", exact=True).input_value() == CHOICES[3]
        assert page.locator("#id_answer_0").is_checked() and page.get_by_label("Negation").is_checked()
        assert self.wait_for_prediction() == percentages
        page.wait_for_function("() => Number(document.getElementById('time-spent').textContent.split(':')[1]) >= 1")
        self.screenshot(page, "author", docs=False, full_page=True)

        page.keyboard.press("Control+Enter")
        saved = page.locator(".question-saved")
        saved.wait_for()
        message = saved.inner_text()
        live_pick_text = CHOICES[picked]
        if picked == 0:
            assert message.startswith(f"Not fooled: the model picked “{live_pick_text}”"), message
        else:
            assert message.startswith(f"Stumped! The model picked “{live_pick_text}”"), message
        # The form is empty again and the stored draft is gone.
        assert page.get_by_label("Prompt").input_value() == ""
        stored = page.evaluate(f"sessionStorage.getItem('stumper:draft:{self.round.pk}')")
        assert stored is None or json.loads(stored)["prompt"] == ""

        question = Question.objects.get()
        assert (question.author_id, question.prompt, question.choices) == (self.student.pk, PROMPT, CHOICES)
        assert question.correct_index == 0 and question.categories == ["negation"]
        assert question.time_spent_seconds >= 1
        prediction = question.predictions.get()
        assert prediction.status == Prediction.Status.DONE and prediction.predicted_index == picked

        page.get_by_role("link", name="Dashboard").click()
        page.wait_for_url(self.url("collector:dashboard"))
        card = page.locator(".question-card", has_text=PROMPT)
        card.wait_for()
        assert f"The model answered “{live_pick_text}”" in card.inner_text()
        assert self.console_errors == []

    def test_an_unchanged_draft_is_never_sent_twice(self) -> None:
        """A field losing focus ("change") while the answer is out sends nothing; the answer is shown.

        The author socket is answered by the test (Playwright's websocket routing), so the answer can
        be held back for as long as the test needs and every draft the page sends is counted.
        """
        import re

        page = self.page
        sockets, drafts = [], []

        def serve(ws) -> None:  # the server side of the author socket, played by the test
            sockets.append(ws)
            ws.on_message(lambda message: drafts.append(json.loads(message)))

        page.route_web_socket(re.compile(r".*/ws/author/\d+/$"), serve)
        self.sign_in()
        page.goto(self.url("collector:round_write", self.round.pk))
        page.get_by_label("Prompt").fill(PROMPT)
        for position, text in enumerate(CHOICES):
            page.get_by_label(f"Completion {'ABCD'[position]}", exact=True).fill(text)
        page.wait_for_timeout(600)  # past the debounce
        assert [d["type"] for d in drafts] == ["draft"] and drafts[0]["choices"] == CHOICES

        # While the answer is out the fields lose focus ("change") and the server says it is loading.
        page.get_by_label("Prompt").focus()
        page.get_by_label("Completion A", exact=True).focus()
        page.keyboard.press("Tab")
        sockets[0].send(json.dumps({"type": "status", "state": "loading", "seq": drafts[0]["seq"],
                                    "message": "The model is loading; your draft is answered as soon as it is ready."}))
        page.wait_for_selector("#notice:not([hidden])")
        assert "loading" in page.locator("#notice").inner_text()
        page.wait_for_timeout(600)
        assert len(drafts) == 1

        # The answer to that first draft is shown as the answer to what is on screen (not stale).
        sockets[0].send(json.dumps({"type": "prediction", "probs": [0.1, 0.6, 0.2, 0.1], "predicted": 1,
                                    "model_version": "tiny-bert-e2e", "fooled": None, "seq": drafts[0]["seq"],
                                    "coach": {"warnings": []}}))
        page.wait_for_selector(".choice-row.is-pick")
        page.wait_for_function("() => !document.getElementById('author-form').classList.contains('is-stale')")
        assert page.locator(".prob-value").all_text_contents() == ["10%", "60%", "20%", "10%"]

        # Answered and unchanged: focus changes send nothing; a real edit sends exactly one draft.
        page.get_by_label("Completion B", exact=True).focus()
        page.keyboard.press("Tab")
        page.wait_for_timeout(600)
        assert len(drafts) == 1
        page.get_by_label("Completion D", exact=True).press("End")
        page.keyboard.type("!")
        page.wait_for_timeout(600)
        page.get_by_label("Completion A", exact=True).focus()
        page.wait_for_timeout(600)
        assert len(drafts) == 2 and drafts[1]["choices"][3] == CHOICES[3] + "!"
        assert self.console_errors == []
