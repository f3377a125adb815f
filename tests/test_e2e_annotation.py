"""End to end: a crowdworker writes questions on a Persian paragraph in real Chromium.

Daphne runs in a forked process and shares the file-based SQLite test database with this
process. The paragraph has an emoji (two UTF-16 units, one code point) before spans with
zero-width non-joiners, so the browser's UTF-16 selection offsets differ from the stored
code-point ``answer_start``. The project's model in the loop is a tiny random
``BertForQuestionAnswering`` answering over the real websocket.
"""
import time
from pathlib import Path

import pytest
from django.test import override_settings

from accounts.models import User
from accounts.services import user_create
from annotation import services
from annotation.models import AnnotationSession, Article, Paragraph, SpanQuestion
from collector.services import model_version_register
from tests.browser import CHROMIUM, BrowserTestCase

pytestmark = pytest.mark.browser

PASSWORD = "a-long-test-password-42"
Z = "\u200c"
CONTEXT = ("موزه" + Z + "ها \U0001F3DB و کتاب" + Z + "خانه" + Z + "های تهران حدود ۲ میلیون کتاب دارند و علي در آن"
           + Z + "جا کار می" + Z + "کند.")
LIBRARIES = "کتاب" + Z + "خانه" + Z + "های"
SCREENSHOT = Path("/tmp/stumper-annotation.png")
TIMEOUT_MS = 30_000


TINY_QA_MODEL = ("import sys; from mlcore.testing import build_tiny_bert_qa; "
                 "build_tiny_bert_qa(sys.argv[1], extra_words=('تهران', 'کتاب'))")


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
@override_settings(STUMPER_TORCH_THREADS=1)
class PersianAnnotationEndToEndTests(BrowserTestCase):
    build_model = TINY_QA_MODEL

    def setUp(self) -> None:
        owner = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        model = model_version_register(name="tiny-qa-e2e", kind="question_answering", path=str(self.model_dir),
                                       revision="e2e")
        self.project = services.project_create(owner=owner, name="pquad-e2e", language="fa", questions_min=2,
                                               questions_max=4, qa_model=model)
        article = Article.objects.create(project=self.project, title="تهران", split="validation", rank=1)
        self.paragraph = Paragraph.objects.create(article=article, position=0, context=CONTEXT)
        self.worker = user_create(username="mina", password=PASSWORD, role=User.Role.CROWDWORKER)
        self.open_page(TIMEOUT_MS)

    def sign_in(self) -> None:
        page = self.page
        page.goto(self.url("accounts:login"))
        page.get_by_label("Username").fill("mina")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(self.url("annotation:task_list"))  # crowdworkers land on their tasks

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
        page.wait_for_function("document.getElementById('model-verdict').textContent.includes('F1')")
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
        page.wait_for_function("document.getElementById('save-state').textContent === 'Draft saved.'")
        page.reload()
        assert page.get_by_label("Question", exact=True).input_value() == "در آن‌جا چه می‌کنند؟"
        assert page.locator("#selection-text").inner_text() == keyboard_text
        page.get_by_label("Question", exact=True).press("Control+Enter")
        page.locator("#question-list li").nth(1).wait_for()
        page.screenshot(path=str(SCREENSHOT), full_page=True)

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
