"""What a screen reader hears on the two pages that change as one types (issue 30 §9): the author
page's live probabilities and the annotation page's spans and model answers are told through one
polite live region per page (``templates/includes/announcer.html``, ``static/js/lib/announce.js``),
once per settled prediction or selection, never on each keystroke or each bar update.

A MutationObserver injected into the page records every change inside any live region (an
``aria-live`` other than ``off``, or a ``status``/``alert``/``log`` role, or an ``output``), with the
time; the test types key by key, and compares what was said with what the page shows.
"""
from pathlib import Path

import pytest

from accounts.models import User
from accounts.services import user_create
from annotation.models import Article, Paragraph
from annotation.services.authoring import session_start_next
from annotation.services.projects import project_create
from annotation.tests.factories import EN_CONTEXT
from collector.services.rounds import round_create
from courses.services import course_create, student_register
from modelhub.services import model_version_register
from tests.browser import CHROMIUM, BrowserTestCase
from tests.test_e2e_authoring import CHOICES, PASSWORD, PROMPT

pytestmark = pytest.mark.browser

TIMEOUT_MS = 30_000
SETTLE_WAIT_MS = 2_000  # the region speaks 700 ms after things settle (static/js/lib/announce.js)
BOTH_MODELS = ("import sys; from mlcore.testing import build_tiny_bert, build_tiny_bert_qa; "
               "build_tiny_bert(sys.argv[1] + '/mc'); build_tiny_bert_qa(sys.argv[1] + '/qa')")
# Records [region id, its text, the time] for every change inside a live region that is not hidden.
OBSERVE = """() => {
    window.spoken = [];
    const live = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"], output';
    new MutationObserver((records) => {
        for (const record of records) {
            const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
            const region = node && node.closest(live);
            if (region && !region.closest('[hidden]')) {
                window.spoken.push([region.id || region.className, region.textContent.trim(), performance.now()]);
            }
        }
    }).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: false});
}"""
# How often the visual status changes (the bars, the selection line): to show the keystrokes did change it.
COUNT_CHANGES = """(selector) => {
    window.changes = 0;
    new MutationObserver((records) => { window.changes += records.length; })
        .observe(document.querySelector(selector), {subtree: true, childList: true, characterData: true});
}"""


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class LiveRegionEndToEndTests(BrowserTestCase):
    build_model = BOTH_MODELS

    def setUp(self) -> None:
        prof = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        course = course_create(owner=prof, name="NLP 101")
        mc = model_version_register(name="tiny-bert-live", kind="multiple_choice", path=str(self.model_dir / "mc"),
                                    revision="e2e")
        self.round = round_create(course=course, name="live", title="Round one", live_model=mc)
        student_register(username="alice", password=PASSWORD, join_code=course.join_code)
        qa = model_version_register(name="tiny-qa-live", kind="question_answering", path=str(self.model_dir / "qa"),
                                    revision="e2e")
        project = project_create(owner=prof, name="nile-live", language="en", questions_min=1, questions_max=3,
                                 qa_model=qa)
        article = Article.objects.create(project=project, title="Nile", split="validation", rank=1)
        Paragraph.objects.create(article=article, position=0, context=EN_CONTEXT)
        mina = user_create(username="mina", password=PASSWORD, role=User.Role.CROWDWORKER)
        self.session = session_start_next(user=mina, project=project)

    def spoken(self, page, since: float = 0.0) -> list[tuple[str, str]]:
        """(region, text) of every live-region change after ``since``, repeats of one write merged."""
        said: list[tuple[str, str]] = []
        for region, text, at in page.evaluate("window.spoken"):
            if at >= since and (not said or said[-1] != (region, text)):
                said.append((region, text))
        return said

    def settled_author_guess(self, page) -> str:
        """Wait for the model's guess for the draft as it stands; returns what the page shows, as said."""
        page.wait_for_selector("#verdict.verdict-fooled, #verdict.verdict-not-fooled")
        page.wait_for_function("() => !document.getElementById('author-form').classList.contains('is-stale')")
        page.wait_for_timeout(SETTLE_WAIT_MS)
        pick = page.locator(".choice-row").evaluate_all("rows => rows.findIndex(r => r.classList.contains('is-pick'))")
        share = page.locator(".choice-row.is-pick .prob-value").inner_text()
        said = f"The model picks {'ABCD'[pick]} with {share}. {page.locator('#verdict').inner_text()}."
        warnings = page.locator("#coach li").all_inner_texts()  # the coach's, said with the guess
        said += f" Coach's warnings: {' '.join(warnings)}" if warnings else ""
        forecast = page.locator("#survival-forecast")  # issue 29's forecast comes with the guess, said after it
        return said + (f" {forecast.inner_text()}" if forecast.count() and forecast.is_visible() else "")

    def test_the_author_page_says_each_settled_guess_once_and_nothing_per_keystroke(self) -> None:
        page = self.new_page(timeout_ms=TIMEOUT_MS)
        predictions: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: predictions.append(str(frame))))
        self.log_in(page, "alice", PASSWORD)
        page.goto(self.url("collector:round_write", self.round.pk))
        # One guess on a first visit, so the server has loaded the model before the keystrokes are
        # counted (a loaded machine may take seconds); the page is then opened afresh.
        page.get_by_label("Prompt").fill(PROMPT)
        for position, text in enumerate(CHOICES):
            page.get_by_label(f"Completion {'ABCD'[position]}", exact=True).fill(text)
        page.wait_for_selector("#verdict.verdict-fooled, #verdict.verdict-not-fooled, #verdict.verdict-unknown")
        page.evaluate("sessionStorage.clear()")  # the page keeps a draft across reloads: start empty
        page.goto(self.url("collector:round_write", self.round.pk))
        predictions.clear()
        assert page.locator("#announcer[aria-live=polite]").count() == 1
        assert page.locator(".prob-track[aria-hidden=true]").count() == 4  # the bars are drawings; the values are text
        page.get_by_label("Prompt").fill(PROMPT)
        for position, text in enumerate(CHOICES[:3]):
            page.get_by_label(f"Completion {'ABCD'[position]}", exact=True).fill(text)
        page.locator("#id_answer_0").check()
        page.evaluate(OBSERVE)
        page.evaluate(COUNT_CHANGES, ".completions")

        # Key by key, slower than the 250 ms debounce: most keystrokes send a draft and get a guess.
        page.get_by_label("Completion D", exact=True).press_sequentially(CHOICES[3], delay=350)
        typed_at = page.evaluate("performance.now()")
        first = self.settled_author_guess(page)
        guesses = sum('"prediction"' in frame for frame in predictions)
        assert guesses >= 2, predictions  # the bars moved while typing ...
        assert page.evaluate("window.changes") >= 4 * guesses  # each guess rewrites the four values
        assert self.spoken(page) == [("announcer", first)]  # ... yet one thing was said, after the last key
        assert page.evaluate("window.spoken")[0][2] > typed_at

        # Marking another answer changes the verdict: one more announcement, the new one.
        pick = page.locator(".choice-row").evaluate_all("rows => rows.findIndex(r => r.classList.contains('is-pick'))")
        page.locator(f"#id_answer_{pick if pick != 0 else 1}").check()
        second = self.settled_author_guess(page)
        assert second != first
        assert self.spoken(page) == [("announcer", first), ("announcer", second)]
        assert not self.console_errors

    def test_the_annotation_page_says_the_selected_span_and_the_models_answer_once(self) -> None:
        page = self.new_page(timeout_ms=TIMEOUT_MS)
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": self.live_server_url}])
        self.log_in(page, "mina", PASSWORD)
        page.goto(self.url("annotation:session", self.session.pk))
        page.locator("#paragraph").wait_for()
        page.wait_for_function("() => !document.getElementById('model-status').textContent.includes('Connecting')")
        assert page.locator("#announcer[aria-live=polite]").count() == 1
        page.evaluate(OBSERVE)
        page.evaluate(COUNT_CHANGES, "#selection-text")

        page.get_by_label("Question", exact=True).press_sequentially("Where do the branches meet?", delay=120)
        page.locator("#paragraph").focus()
        page.keyboard.press("Home")
        for _ in range(3):  # the selection grows word by word
            page.keyboard.press("Control+Shift+ArrowRight")
            page.wait_for_timeout(150)
        typed_at = page.evaluate("performance.now()")
        page.wait_for_function("() => document.getElementById('model-verdict').textContent.includes('F1')")
        page.wait_for_timeout(SETTLE_WAIT_MS)
        selection = page.locator("#selection-text").inner_text()
        answer = page.locator("#model-answer-text").inner_text()
        verdict = page.locator("#model-verdict").inner_text()
        assert page.evaluate("window.changes") >= 3  # the visual line followed each key
        said = self.spoken(page)
        assert {region for region, _ in said} == {"announcer"}, said  # no other region spoke
        assert all(at > typed_at for *_, at in page.evaluate("window.spoken")), said  # nothing while typing
        # The span once, and the model's answer to the draft with it once: in one announcement, or
        # in two when the model took longer than the region's settling time.
        texts = [text for _, text in said]
        assert sum(f"Selected answer: {selection}" in text for text in texts) == 1, texts
        assert texts[-1].endswith(f"Model's answer: {answer}; {verdict}."), texts
        assert len(texts) <= 2, texts

        # Adding the question says "Saved." once; the re-drawn list and counts say nothing.
        since = page.evaluate("performance.now()")
        page.get_by_role("button", name="Add question").click()
        page.locator("#question-list li").first.wait_for()
        page.wait_for_timeout(SETTLE_WAIT_MS)
        assert self.spoken(page, since) == [("announcer", "Saved.")]
        assert not self.console_errors
