"""End to end, in real Chromium: the span annotator's keyboard path (issue 30 §5).

Ctrl+Enter adds the question wherever the answer was selected (the paragraph included), so the
next question never lands in an unsent one; Ctrl+Shift+arrows extend the selection by whole words,
as text editors do, in English and in right-to-left Persian; on a phone the question box stays in
reach while the worker reads; the second pass shows every answer in the legend's colours.
"""
from pathlib import Path

import pytest

from accounts.models import User
from accounts.services import user_create
from annotation.models import Article, Paragraph, SpanQuestion
from annotation.services.authoring import question_add, session_start_next, session_submit
from annotation.services.projects import project_create
from tests.browser import CHROMIUM, BrowserTestCase

pytestmark = pytest.mark.browser

PASSWORD = "a-long-test-password-42"
TIMEOUT_MS = 30_000
Z = "\u200c"
EN_CONTEXT = ("The Nile \U0001F30A is the longest river in Africa. It empties into the Mediterranean Sea near "
              "Alexandria. Its two main branches meet at Khartoum.")
FA_CONTEXT = "من می" + Z + "خواهم به کتاب" + Z + "خانه بروم."
PHONE = {"width": 390, "height": 844}


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class SpanKeyboardPathTests(BrowserTestCase):
    build_model = "import sys"  # no model in the loop here

    def setUp(self) -> None:
        self.owner = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        self.worker = user_create(username="sam", password=PASSWORD, role=User.Role.CROWDWORKER)
        self.open_page(TIMEOUT_MS)
        self.context.add_cookies([{"name": "django_language", "value": "en", "url": self.live_server_url}])

    def project(self, name: str, language: str, contexts: list[str], split: str = "train"):
        project = project_create(owner=self.owner, name=name, language=language, questions_min=2, questions_max=4)
        article = Article.objects.create(project=project, title=name, split=split, rank=1)
        for position, context in enumerate(contexts):
            Paragraph.objects.create(article=article, position=position, context=context)
        return project

    def open_session(self, page, project, kind: str = "authoring"):
        session = session_start_next(user=self.worker, project=project, kind=kind)
        self.log_in(page, "sam", PASSWORD)
        page.goto(self.url("annotation:session", session.pk))
        page.locator("#paragraph").wait_for()
        return session

    def selected(self, page) -> str:
        """The selected text exactly (inner_text would drop a trailing space)."""
        return page.evaluate("document.getElementById('selection-text').textContent")

    def test_ctrl_enter_in_the_paragraph_adds_the_question_and_the_next_one_starts_empty(self) -> None:
        page = self.page
        session = self.open_session(page, self.project("nile", "en", [EN_CONTEXT]))
        question = page.locator("#question-input")
        question.fill("Which river is the longest in Africa?")
        page.locator("#paragraph").focus()
        page.keyboard.press("Home")
        page.keyboard.press("Control+Shift+ArrowRight")
        page.keyboard.press("Control+Shift+ArrowRight")
        assert self.selected(page) == "The Nile"
        page.keyboard.press("Control+Enter")  # the focus is on the paragraph, where the answer was selected
        page.locator("#question-list li").first.wait_for()
        assert question.input_value() == ""
        assert page.evaluate("document.activeElement.id") == "question-input"
        page.keyboard.type("Where does the Nile end?")
        assert question.input_value() == "Where does the Nile end?"
        # The second one, selected with the mouse, from the question list's focus this time.
        page.locator("#paragraph").focus()
        page.keyboard.press("End")
        page.keyboard.press("Control+Shift+ArrowLeft")
        page.locator("#question-list li").first.focus()
        page.keyboard.press("Control+Enter")
        page.locator("#question-list li").nth(1).wait_for()
        stored = list(SpanQuestion.objects.filter(session=session).order_by("position"))
        assert [q.question for q in stored] == ["Which river is the longest in Africa?", "Where does the Nile end?"]
        assert [q.answers.get().text for q in stored] == ["The Nile", "Khartoum."]
        assert self.console_errors == []

    def test_ctrl_shift_arrows_extend_by_whole_words_both_ways_in_english_and_persian(self) -> None:
        page = self.page
        self.open_session(page, self.project("nile", "en", [EN_CONTEXT]))
        page.locator("#paragraph").focus()
        page.keyboard.press("Home")
        seen = []
        for _ in range(3):
            page.keyboard.press("Control+Shift+ArrowRight")
            seen.append(self.selected(page))
        assert seen == ["The", "The Nile", "The Nile \U0001F30A is"]  # every press takes one more word
        page.keyboard.press("Control+Shift+ArrowLeft")
        assert self.selected(page) == "The Nile \U0001F30A "
        page.keyboard.press("Control+Shift+ArrowLeft")
        assert self.selected(page) == "The "

        persian = self.project("tehran", "fa", [FA_CONTEXT])
        session = session_start_next(user=self.worker, project=persian)
        page.goto(self.url("annotation:session", session.pk))
        paragraph = page.locator("#paragraph")
        assert paragraph.get_attribute("dir") == "rtl"
        paragraph.focus()
        page.keyboard.press("Home")
        page.keyboard.press("Control+Shift+ArrowLeft")  # ← goes forward in right-to-left text
        page.keyboard.press("Control+Shift+ArrowLeft")
        assert self.selected(page) == "من می" + Z + "خواهم"  # the ZWNJ does not split the word
        page.keyboard.press("Control+Shift+ArrowLeft")
        page.keyboard.press("Control+Shift+ArrowLeft")
        assert self.selected(page) == "من می" + Z + "خواهم به کتاب" + Z + "خانه"
        page.keyboard.press("Control+Shift+ArrowRight")
        assert self.selected(page) == "من می" + Z + "خواهم به "

    def test_on_a_phone_the_question_box_stays_in_reach_while_reading(self) -> None:
        long_context = " ".join([EN_CONTEXT] * 12)
        project = self.project("nile", "en", [long_context])
        phone = self.new_page(viewport=PHONE, timeout_ms=TIMEOUT_MS)
        phone.context.add_cookies([{"name": "django_language", "value": "en", "url": self.live_server_url}])
        self.open_session(phone, project)
        height = phone.evaluate("document.getElementById('paragraph').getBoundingClientRect().height")
        assert height > PHONE["height"], "the paragraph must be longer than the screen for this test"
        for fraction in (0.3, 0.7):  # reading the middle of the paragraph
            phone.evaluate("""(f) => {
                const r = document.getElementById('paragraph').getBoundingClientRect();
                window.scrollTo(0, window.scrollY + r.top + r.height * f - innerHeight / 2);
            }""", fraction)
            box = phone.evaluate("""() => {
                const r = document.getElementById('question-input').getBoundingClientRect();
                const p = document.getElementById('paragraph').getBoundingClientRect();
                return {top: r.top, bottom: r.bottom, paragraphTop: p.top, paragraphBottom: p.bottom};
            }""")
            assert box["paragraphTop"] < 0 and box["paragraphBottom"] > PHONE["height"]  # mid-paragraph
            assert box["top"] >= 0 and box["bottom"] <= PHONE["height"], box
        phone.locator("#question-input").fill("Which river?")  # usable there, and the page does not scroll sideways
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # On a wide screen the question box stays beside the paragraph, not over it.
        self.open_session(self.page, project)
        beside = self.page.evaluate("""() => [document.getElementById('paragraph').getBoundingClientRect().right,
                                              document.getElementById('question-input').getBoundingClientRect().left]""")
        assert beside[0] < beside[1]

    def test_the_second_pass_shows_every_answer_in_the_legends_colours(self) -> None:
        project = self.project("nile", "en", [EN_CONTEXT], split="validation")
        author = user_create(username="ali", password=PASSWORD, role=User.Role.CROWDWORKER)
        session = session_start_next(user=author, project=project)
        for question, text in (("Which river?", "The Nile"), ("Where do the branches meet?", "Khartoum")):
            question_add(session=session, user=author, question=question,
                         answer={"text": text, "answer_start": EN_CONTEXT.index(text)})
        session_submit(session=session, user=author)
        page = self.page
        self.open_session(page, project, kind="second_pass")
        items = page.locator("#review-list > li")
        for index, (key, presses) in enumerate((("Home", 2), ("End", 1))):
            page.locator("#paragraph").focus()
            page.keyboard.press(key)
            for _ in range(presses):
                page.keyboard.press("Control+Shift+ArrowRight" if key == "Home" else "Control+Shift+ArrowLeft")
            items.nth(index).get_by_role("button", name="Use the selected text as the answer").click()
            items.nth(index).locator(".match-line").wait_for()
        colour = "el => getComputedStyle(el).backgroundColor"
        legend_yours = page.locator(".muted .ans-sample").first.evaluate(colour)
        legend_original = page.locator(".muted .orig-sample").first.evaluate(colour)
        # The shown question (the last answered) has the original highlighted; the other answer is a
        # mark in "your answer" green, never in a per-question colour.
        marks = page.locator("#paragraph [data-mark-id]")
        assert marks.count() >= 1
        for i in range(marks.count()):
            assert marks.nth(i).evaluate(colour) == legend_yours
            assert "hl-c" not in marks.nth(i).get_attribute("class")
        original = page.locator("#paragraph .hl-orig:not(.hl-ans)")
        assert original.count() == 0 or original.first.evaluate(colour) == legend_original
        assert page.locator("#paragraph [class*='hl-c']").count() == 0
