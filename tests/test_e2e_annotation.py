"""End to end: a crowdworker writes questions on a Persian paragraph in real Chromium, and another
answers an English paragraph's questions in the second pass, which stays blind.

Daphne runs in a forked process and shares the file-based SQLite test database with this
process. The paragraph has an emoji (two UTF-16 units, one code point) before spans with
zero-width non-joiners, so the browser's UTF-16 selection offsets differ from the stored
code-point ``answer_start``. The project's model in the loop is a tiny random
``BertForQuestionAnswering`` answering over the real websocket.
"""
import time
from pathlib import Path

import pytest

from accounts.models import User
from accounts.services import user_create
from annotation.models import AnnotationSession, Article, Paragraph, QuestionFlag, SecondPassAnswer, SpanQuestion
from annotation.selectors.exports import project_squad_dict
from annotation.selectors.stats import project_stats
from annotation.services.authoring import question_add, session_start_next, session_submit
from annotation.services.projects import project_create
from modelhub.services import model_version_register
from tests.browser import CHROMIUM, BrowserTestCase

pytestmark = pytest.mark.browser

PASSWORD = "a-long-test-password-42"
Z = "\u200c"
CONTEXT = ("موزه" + Z + "ها \U0001F3DB و کتاب" + Z + "خانه" + Z + "های تهران حدود ۲ میلیون کتاب دارند و علي در آن"
           + Z + "جا کار می" + Z + "کند.")
LIBRARIES = "کتاب" + Z + "خانه" + Z + "های"
TIMEOUT_MS = 30_000


TINY_QA_MODEL = ("import sys; from mlcore.testing import build_tiny_bert_qa; "
                 "build_tiny_bert_qa(sys.argv[1], extra_words=('تهران', 'کتاب'))")


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class PersianAnnotationEndToEndTests(BrowserTestCase):
    build_model = TINY_QA_MODEL

    def setUp(self) -> None:
        owner = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        model = model_version_register(name="tiny-qa-e2e", kind="question_answering", path=str(self.model_dir),
                                       revision="e2e")
        self.project = project_create(owner=owner, name="pquad-e2e", language="fa", questions_min=2,
                                      questions_max=4, qa_model=model)
        article = Article.objects.create(project=self.project, title="تهران", split="validation", rank=1)
        self.paragraph = Paragraph.objects.create(article=article, position=0, context=CONTEXT)
        self.worker = user_create(username="mina", password=PASSWORD, role=User.Role.CROWDWORKER)
        self.open_page(TIMEOUT_MS)
        # This worker chose the English interface (the Persian one: tests/test_e2e_annotation_persian.py).
        self.context.add_cookies([{"name": "django_language", "value": "en", "url": self.live_server_url}])

    def sign_in(self) -> None:
        self.log_in(self.page, "mina", PASSWORD)
        self.page.wait_for_url(self.url("annotation:task_list"))  # crowdworkers land on their tasks

    def select_with_the_mouse(self, text: str) -> None:
        """A real drag from the first to the last character of ``text`` (right to left in Persian)."""
        box = self.page.evaluate(
            """([text]) => {
                const el = document.getElementById('paragraph');
                const node = el.firstChild, start = node.data.indexOf(text), end = start + text.length;
                const r = document.createRange();
                r.setStart(node, start); r.setEnd(node, start + 1);
                const first = r.getBoundingClientRect();
                r.setStart(node, end - 1); r.setEnd(node, end);
                const last = r.getBoundingClientRect();
                return {x0: first.right - 1, y0: first.top + first.height / 2, x1: last.left + 1, y1: last.top + last.height / 2};
            }""", [text])
        mouse = self.page.mouse
        mouse.move(box["x0"], box["y0"])
        mouse.down()
        mouse.move((box["x0"] + box["x1"]) / 2, box["y1"], steps=5)
        mouse.move(box["x1"], box["y1"], steps=5)
        mouse.up()

    def test_worker_marks_spans_with_zwnj_by_mouse_and_keyboard(self) -> None:
        page = self.page
        self.sign_in()
        page.get_by_role("button", name="Write questions").click()
        session = AnnotationSession.objects.get(worker=self.worker)
        page.wait_for_url(self.url("annotation:session", session.pk))
        paragraph = page.locator("#paragraph")
        assert paragraph.get_attribute("dir") == "rtl"
        assert page.evaluate("document.getElementById('paragraph').textContent") == CONTEXT

        # Question 1: typed, then its answer dragged with the mouse; the model answers over the websocket.
        page.get_by_label("Question", exact=True).fill("چه چیزی حدود دو میلیون کتاب دارد؟")
        self.select_with_the_mouse(LIBRARIES)
        # The shown selection follows the drag; wait for its end state (a loaded machine may show a
        # partial selection first), then check it exactly.
        page.wait_for_function("(text) => document.getElementById('selection-text').textContent === text", arg=LIBRARIES)
        assert page.locator("#selection-text").inner_text() == LIBRARIES
        page.locator("#model-answer").wait_for(state="visible")
        # The model may first answer the draft sent before the answer was marked ("mark your
        # answer to compare"); the draft with the selection follows after the debounce.
        page.wait_for_function("() => document.getElementById('model-verdict').textContent.includes('F1')")
        verdict = page.locator("#model-verdict").inner_text()
        assert "fooled" in verdict, verdict
        page.get_by_role("button", name="Add question").click()
        page.locator("#question-list li").first.wait_for()

        # Question 2: the answer selected with the keyboard alone (End, then two words back).
        page.get_by_label("Question", exact=True).fill("در آن‌جا چه می‌کنند؟")
        paragraph.focus()
        page.keyboard.press("End")
        page.keyboard.press("Control+Shift+ArrowRight")
        page.keyboard.press("Control+Shift+ArrowRight")
        keyboard_text = page.locator("#selection-text").inner_text()
        assert Z in keyboard_text and CONTEXT.endswith(keyboard_text), keyboard_text

        # A reload keeps the half-finished question (saved on the server) and its selection.
        page.wait_for_function("() => document.getElementById('save-state').textContent === 'Draft saved.'")
        page.reload()
        assert page.get_by_label("Question", exact=True).input_value() == "در آن‌جا چه می‌کنند؟"
        assert page.locator("#selection-text").inner_text() == keyboard_text
        page.get_by_label("Question", exact=True).press("Control+Enter")
        page.locator("#question-list li").nth(1).wait_for()
        self.screenshot(page, "annotation", docs=False, full_page=True)

        page.get_by_role("button", name="Submit paragraph").click()
        page.locator("#done-panel").wait_for(state="visible")

        first, second = SpanQuestion.objects.filter(session=session).order_by("position")
        assert first.status == second.status == "submitted"
        stored = first.answers.get()
        assert stored.text == LIBRARIES
        assert stored.answer_start == CONTEXT.index(LIBRARIES)  # code points: the emoji counts once
        assert CONTEXT[stored.answer_start:stored.answer_start + len(stored.text)] == stored.text
        stored = second.answers.get()
        assert stored.text == keyboard_text and stored.answer_start == len(CONTEXT) - len(keyboard_text)
        # The model's answer was stored for each question (a task after the commit) without ever blocking them.
        deadline = time.monotonic() + 30
        while SpanQuestion.objects.filter(session=session, qa_prediction_f1__isnull=True).exists():
            assert time.monotonic() < deadline, "the model's answers were never stored"
            time.sleep(0.5)
        assert set(SpanQuestion.objects.filter(session=session).values_list("qa_model_version__name", flat=True)) \
            == {"tiny-qa-e2e"}
        assert self.console_errors == []


# An emoji (two UTF-16 units) before the spans: the highlights must use the browser's offsets.
EN_CONTEXT = ("The Nile \U0001F30A is the longest river in Africa. It empties into the Mediterranean Sea near "
              "Alexandria. Its two main branches meet at Khartoum.")


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class SecondPassEndToEndTests(BrowserTestCase):
    """A second-pass worker answers blind, sees the verdict and the original span, flags it, and
    cannot change their answer: not on the page, not by replaying the old page's requests."""

    build_model = "import sys"  # no model in the loop here

    def setUp(self) -> None:
        self.owner = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        self.project = project_create(owner=self.owner, name="nile-e2e", language="en", questions_min=2,
                                      questions_max=4)
        article = Article.objects.create(project=self.project, title="Nile", split="validation", rank=1)
        paragraph = Paragraph.objects.create(article=article, position=0, context=EN_CONTEXT)
        author = user_create(username="ali", password=PASSWORD, role=User.Role.CROWDWORKER)
        session = session_start_next(user=author, project=self.project)
        for question, text in (("Which sea does the Nile empty into?", "the Mediterranean Sea"),
                               ("Where do the two branches meet?", "Khartoum")):
            question_add(session=session, user=author, question=question,
                         answer={"text": text, "answer_start": EN_CONTEXT.index(text)})
        session_submit(session=session, user=author)
        self.sea, self.khartoum = SpanQuestion.objects.filter(paragraph=paragraph).order_by("position")
        self.worker = user_create(username="mina", password=PASSWORD, role=User.Role.CROWDWORKER)
        self.open_page(TIMEOUT_MS)

    def sign_in(self, username: str) -> None:
        self.log_in(self.page, username, PASSWORD)

    def select(self, text: str) -> None:
        """A real left-to-right mouse drag over ``text`` in the paragraph."""
        box = self.page.evaluate(
            """([text]) => {
                const el = document.getElementById('paragraph');
                const whole = el.textContent, start = whole.indexOf(text), end = start + text.length;
                const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
                const at = (offset, after) => {  // the text node and offset of a UTF-16 position
                    for (let n = walker.nextNode(), seen = 0; n; seen += n.data.length, n = walker.nextNode()) {
                        if (offset < seen + n.data.length || (after && offset === seen + n.data.length)) {
                            walker.currentNode = el; return [n, offset - seen];
                        }
                    }
                };
                const r = document.createRange();
                const [n0, o0] = at(start, false); r.setStart(n0, o0); r.setEnd(n0, o0 + 1);
                const first = r.getBoundingClientRect();
                const [n1, o1] = at(end, true); r.setStart(n1, o1 - 1); r.setEnd(n1, o1);
                const last = r.getBoundingClientRect();
                return {x0: first.left + 1, y0: first.top + first.height / 2, x1: last.right - 1, y1: last.top + last.height / 2};
            }""", [text])
        mouse = self.page.mouse
        mouse.move(box["x0"], box["y0"])
        mouse.down()
        mouse.move(box["x1"], box["y1"], steps=8)
        mouse.up()
        self.page.wait_for_function("(text) => document.getElementById('selection-text').textContent === text",
                                    arg=text)

    def highlighted(self, name: str) -> str:
        """The paragraph's text under one highlight (overlapping highlights split it into pieces)."""
        return "".join(self.page.locator(f"#paragraph .hl-{name}").all_inner_texts())

    def replay(self, session_id: int, body: dict):
        """A request as the page sends it (session cookie, CSRF header), from the same browser."""
        token = next(c["value"] for c in self.context.cookies() if c["name"] == "csrftoken")
        url = self.live_server_url + f"/api/annotation/sessions/{session_id}/answers/"
        return self.page.request.post(url, data=body, headers={"X-CSRFToken": token,
                                                                "Referer": self.live_server_url + "/"})

    def test_the_answer_is_final_and_the_original_is_shown_after_it(self) -> None:
        page = self.page
        self.sign_in("mina")
        page.get_by_role("button", name="Answer others' questions").click()
        session = AnnotationSession.objects.get(worker=self.worker, kind="second_pass")
        page.wait_for_url(self.url("annotation:session", session.pk))
        items = page.locator("#review-list > li")
        items.first.wait_for()
        # Blind: nothing of the original before answering.
        assert page.locator("#paragraph .hl-orig").count() == 0
        assert "Original answer" not in page.locator("#review-list").inner_text()

        self.select("Alexandria")
        items.nth(0).get_by_role("button", name="Use the selected text as the answer").click()
        items.nth(0).locator(".badge-differs").wait_for()
        assert items.nth(0).locator(".match-line").inner_text() == \
            "Differs from the original Original answer: the Mediterranean Sea"
        assert self.highlighted("orig") == "the Mediterranean Sea"
        assert self.highlighted("ans") == "Alexandria"
        # No control changes the worker's own answer.
        assert items.nth(0).get_by_role("button").count() == 0  # the flag form is closed behind its one link
        assert page.get_by_role("button", name="Answer again with the selection").count() == 0
        assert page.get_by_role("button", name="Use the selected text as the answer").count() == 1  # question 2's

        # Replaying the old page's requests from this browser: refused, nothing changes.
        original = {"text": "the Mediterranean Sea", "answer_start": EN_CONTEXT.index("the Mediterranean Sea")}
        for body in ({"question_id": self.sea.pk, "is_impossible": False, "answer": original},
                     {"question_id": self.sea.pk, "is_impossible": False,
                      "answer": {"text": "Alexandria", "answer_start": EN_CONTEXT.index("Alexandria")},
                      "flag": {"proposal": "fix_answer", "reason": "copied"}}):
            response = self.replay(session.pk, body)
            assert response.status == 409, response.text()
            assert "first answer is final" in response.json()["detail"]

        # Flagging: one link, a proposed span, and the answer stays.
        items.nth(0).get_by_text("Flag the original answer").click()
        self.select("Mediterranean Sea")
        self.screenshot(page, "second-pass-flag", docs=False, full_page=True)
        items.nth(0).get_by_role("button", name="Send the flag").click()
        items.nth(0).get_by_text("You flagged the original answer").wait_for()
        assert self.highlighted("orig") == "the Mediterranean Sea"

        self.select("Khartoum")
        items.nth(1).get_by_role("button", name="Use the selected text as the answer").click()
        items.nth(1).locator(".badge-match").wait_for()
        assert self.highlighted("orig") == "Khartoum"
        self.screenshot(page, "second-pass", docs=False, full_page=True)
        page.get_by_role("button", name="Finish paragraph").click()
        page.locator("#done-panel").wait_for(state="visible")

        assert SecondPassAnswer.objects.get(question=self.sea).text == "Alexandria"
        flag = QuestionFlag.objects.get()
        assert (flag.proposed_text, flag.after_reveal, flag.status) == ("Mediterranean Sea", True, "open")
        (paragraph,) = project_squad_dict(project=self.project)["data"][0]["paragraphs"]
        assert [a["text"] for a in paragraph["qas"][0]["answers"]] == ["the Mediterranean Sea", "Alexandria"]
        (human,) = project_stats(project=self.project).human
        assert (human.n, human.exact) == (2, 50.0)
        assert self.console_errors == []

        # The owner's dashboard says what the number rests on.
        self.context.clear_cookies()
        self.sign_in("prof")
        page.goto(self.url("annotation:project_dashboard", self.project.pk))
        assert page.locator("#human-basis").inner_text().startswith("Human EM/F1 from 2 blind second-pass answers")
