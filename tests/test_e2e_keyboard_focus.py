"""Every action by keyboard, with a visible focus (issue 30 §9), in real Chromium.

On each main page (the author page, validation, a round, the annotation page, the dashboard) Tab
goes through every interactive element the page shows, in the page's order, and each one looks
different when it has the focus (its outline, shadow, border or background, compared with the
same element without the focus). Then the main actions are done with the keyboard alone: writing
and submitting a question, validating one, marking a span and adding the question, going from the
dashboard to the author page (and the skip link to the content).
"""
from pathlib import Path

import pytest
from django.utils import timezone

from accounts.models import User
from accounts.services import user_create
from annotation.models import Article, Paragraph, SpanQuestion
from annotation.services.authoring import session_start_next
from annotation.services.projects import project_create
from annotation.tests.factories import EN_CONTEXT
from collector.models import Prediction, Question, Round, Validation
from collector.services.rounds import round_create
from courses.services import course_create, student_register
from modelhub.models import ModelVersion
from tests.browser import CHROMIUM, BrowserTestCase
from tests.test_e2e_authoring import CHOICES, PASSWORD, PROMPT

pytestmark = pytest.mark.browser

TIMEOUT_MS = 30_000
MAX_TABS = 250
# What Tab should reach, in document order: visible, enabled, not taken out of the order; of a
# radio group only the checked radio (or the first, when none is).
TABBABLE = """() => {
    const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex], iframe';
    const seenGroups = new Set();
    return Array.from(document.querySelectorAll(selector)).filter((el) => {
        if (el.disabled || el.tabIndex < 0 || el.closest('[inert], [hidden]')) { return false; }
        if (el.closest('details:not([open])') && el.tagName !== 'SUMMARY') { return false; }
        const style = getComputedStyle(el);
        if (!el.getClientRects().length || style.visibility === 'hidden') { return false; }
        if (el.type === 'radio' && el.name) {
            const group = Array.from(el.form ? el.form.elements[el.name] : document.getElementsByName(el.name));
            const chosen = group.find((r) => r.checked) || group.find((r) => !r.disabled);
            if (chosen !== el || seenGroups.has(el.name)) { return false; }
            seenGroups.add(el.name);
        }
        return true;
    });
}"""
# A description of the focused element and how it looks, focused and (after a blur) not.
LOOK = """(el) => {
    const s = getComputedStyle(el);
    const outline = s.outlineStyle === 'none' || parseFloat(s.outlineWidth) === 0 ? 'none'
        : [s.outlineStyle, s.outlineWidth, s.outlineColor].join(' ');
    return [outline, s.boxShadow, s.borderColor, s.backgroundColor, s.textDecorationLine].join(' | ');
}"""
DESCRIBE = "(el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.name ? '[' + el.name + ']' : '') + ' ' + (el.textContent || el.value || '').trim().slice(0, 30)"


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class KeyboardFocusEndToEndTests(BrowserTestCase):
    build_model = "import sys"  # no live model: the pages' keyboard paths, not predictions

    def setUp(self) -> None:
        prof = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        course = course_create(owner=prof, name="NLP 101")
        self.round = round_create(course=course, name="keys", title="Round one", categories=["idioms", "negation"])
        Round.objects.filter(pk=self.round.pk).update(peer_validation="always", validations_required=1)
        alice = student_register(username="alice", password=PASSWORD, join_code=course.join_code)
        student_register(username="bob", password=PASSWORD, join_code=course.join_code)  # validates alice's
        model = ModelVersion.objects.create(name="tiny-mc", kind="multiple_choice", path="/nowhere")
        self.pending = Question.objects.create(round=self.round, author=alice, prompt="A pending question. He",
                                               choices=["ran.", "sat.", "slept.", "ate."], correct_index=0,
                                               status="pending", categories=["idioms"])
        Prediction.objects.create(question=self.pending, status="done", model_version=model, probs=[.1, .2, .3, .4],
                                  predicted_index=3, fooled=True, computed_at=timezone.now())
        project = project_create(owner=prof, name="nile-keys", language="en", questions_min=1, questions_max=3)
        article = Article.objects.create(project=project, title="Nile", split="validation", rank=1)
        Paragraph.objects.create(article=article, position=0, context=EN_CONTEXT)
        mina = user_create(username="mina", password=PASSWORD, role=User.Role.CROWDWORKER)
        self.session = session_start_next(user=mina, project=project)

    def signed_in(self, username: str):
        page = self.new_page(timeout_ms=TIMEOUT_MS)
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": self.live_server_url}])
        self.log_in(page, username, PASSWORD)
        return page

    def tab_through(self, page, path: str, ready: str = "main", sabotage: str = "") -> None:
        """Tab from the top of ``path`` to its end: every element Tab should reach, in order, with a visible
        focus. ``sabotage`` (script run first) is for the control that shows the check can fail."""
        page.goto(self.live_server_url + path)
        page.locator(ready).first.wait_for()
        page.wait_for_load_state("networkidle")
        if sabotage:
            page.evaluate(sabotage)
        expected = page.evaluate_handle(TABBABLE)
        count = page.evaluate("(list) => list.length", expected)
        assert count >= 5, (path, count)  # the page's links and controls were found
        # Tab starts from the top: from a marker that is not in the order itself (not from a field a
        # page's script focused on load).
        page.evaluate("""() => {
            const start = document.createElement('span');
            start.tabIndex = -1;
            document.body.prepend(start);
            start.focus();
            window.scrollTo(0, 0);
        }""")
        reached, invisible = [], []
        for _ in range(min(count + 5, MAX_TABS)):
            page.keyboard.press("Tab")
            focused = page.evaluate_handle("document.activeElement")
            if page.evaluate("(el) => el === document.body || el === null", focused):
                break
            name = page.evaluate(DESCRIBE, focused)
            if reached and page.evaluate("([el, list]) => el === list[0]", [focused, expected]):
                break  # wrapped round to the first element
            reached.append(page.evaluate("([el, list]) => list.indexOf(el)", [focused, expected]))
            look_focused = page.evaluate(LOOK, focused)
            visible = page.evaluate("(el) => el.matches(':focus-visible')", focused)
            page.evaluate("(el) => el.blur()", focused)
            look_blurred = page.evaluate(LOOK, focused)
            page.evaluate("(el) => el.focus()", focused)  # back where Tab left it
            if look_focused == look_blurred or not visible:
                invisible.append(f"{name}: {look_focused}")
        names = page.evaluate(f"(list) => list.map({DESCRIBE})", expected)
        assert reached == list(range(count)), (path, [names[i] if i >= 0 else "?" for i in reached], names)
        assert not invisible, (path, invisible)

    def test_every_main_page_tabs_in_order_with_a_visible_focus(self) -> None:
        student = self.signed_in("alice")
        for path in ("/dashboard/", f"/rounds/{self.round.pk}/write/"):
            self.tab_through(student, path)
        self.tab_through(self.signed_in("prof"), f"/rounds/{self.round.pk}/")
        self.tab_through(self.signed_in("bob"), "/validate/", ready="#validate-form")
        self.tab_through(self.signed_in("mina"), f"/annotation/sessions/{self.session.pk}/", ready="#paragraph")
        # The control: links whose focus ring is taken away are caught.
        no_ring = "() => document.querySelectorAll('main a').forEach(a => a.style.setProperty('outline', 'none', 'important'))"
        with pytest.raises(AssertionError, match="Write questions"):
            self.tab_through(student, "/dashboard/", sabotage=no_ring)

    def test_the_main_actions_work_with_the_keyboard_alone(self) -> None:
        page = self.signed_in("alice")
        page.goto(self.url("collector:dashboard"))
        page.keyboard.press("Tab")  # the skip link comes first and moves the focus to the content
        assert page.evaluate("document.activeElement.classList.contains('skip-link')")
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.closest('main') !== null")
        self.tab_to(page, "a.button-primary[href$='/write/']")
        page.keyboard.press("Enter")
        page.wait_for_url(self.url("collector:round_write", self.round.pk))

        # The question: each field reached with Tab and typed into, the answer marked with Space.
        self.tab_to(page, "#id_prompt")
        page.keyboard.type(PROMPT)
        for position, text in enumerate(CHOICES):
            self.tab_to(page, f"#id_choice_{position}")
            page.keyboard.type(text)
        self.tab_to(page, "#id_answer_0")
        page.keyboard.press("ArrowDown")  # within the radio group, as browsers do: B is now the right one
        assert page.locator("#id_answer_1").is_checked()
        self.tab_to(page, "#submit-question")
        page.keyboard.press("Enter")
        page.locator(".question-saved").wait_for()
        assert Question.objects.get(prompt=PROMPT).correct_index == 1

        # Validation: the answer with its number key (1–4), saved with Enter on the button.
        bob = self.signed_in("bob")
        bob.goto(self.url("collector:validate"))
        self.tab_to(bob, "#validate-form input[type=radio]")
        bob.keyboard.press("Space")
        self.tab_to(bob, "#submit-validation")
        bob.keyboard.press("Enter")
        bob.locator(".message-success").wait_for()
        assert Validation.objects.filter(question=self.pending).count() == 1

        # The annotation page: the question typed, the span marked from the keyboard, added with Enter.
        worker = self.signed_in("mina")
        worker.goto(self.url("annotation:session", self.session.pk))
        worker.locator("#paragraph").wait_for()
        self.tab_to(worker, "#question-input")
        worker.keyboard.type("Where do the two branches meet?")
        self.tab_to(worker, "#paragraph")
        worker.keyboard.press("End")
        worker.keyboard.press("ArrowLeft")  # before the full stop
        worker.keyboard.press("Control+Shift+ArrowLeft")
        assert worker.locator("#selection-text").inner_text() == "Khartoum"
        self.tab_to(worker, "#add-button")
        worker.keyboard.press("Enter")
        worker.locator("#question-list li").first.wait_for()
        added = SpanQuestion.objects.get(question="Where do the two branches meet?")
        assert added.answers.get().text == "Khartoum"
        self.tab_to(worker, "#submit-paragraph")
        worker.keyboard.press("Enter")
        worker.locator("#done-panel").wait_for(state="visible")
        assert worker.evaluate("document.activeElement.id") == "next-paragraph"
        assert not self.console_errors

    def tab_to(self, page, selector: str) -> None:
        """Press Tab (from where the focus is) until ``selector`` has the focus."""
        for _ in range(MAX_TABS):
            if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
                return
            page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {selector} on {page.url}")
