"""Phones (390x844) in real Chromium: every main page of every role fits the screen's width
(document.scrollWidth <= 390), and the navigation folds behind a menu button that works with
the keyboard (aria-expanded, Enter, Escape) and the mouse. Also the crowdworker's invite link,
followed on a phone from sign-up to the task list. And user text with no place to break (200 x "a",
a long URL, Persian without spaces) wraps on every page at 390 and 1366 px, and charts fit their box."""
from pathlib import Path

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.services import user_create
from annotation.models import Article, Paragraph
from annotation.services.projects import project_create
from annotation.tests.factories import EN_CONTEXT
from collector.services.rounds import round_create
from courses import services as course_services
from tests.browser import CHROMIUM, BrowserTestCase
from tests.test_e2e_authoring import PASSWORD

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 390, 844
# User text with no place to break a line (issue 30 §4): it must wrap, never widen the page.
LONG_WORD = "a" * 200
LONG_URL = "https://example.org/" + "/".join(f"segment-{i}-without-spaces" for i in range(12)) + "?q=" + "x" * 60
PERSIAN = "سلام" * 60
TIMEOUT_MS = 30_000


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class MobileEndToEndTests(BrowserTestCase):
    build_model = "import sys"  # no model needed: pages and menus only

    def setUp(self) -> None:
        self.instructor = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        course = course_services.course_create(owner=self.instructor, name="Commonsense reasoning for natural language")
        self.round = round_create(course=course, name="round-one", title="A first round with a long title",
                                           categories=["idioms", "negation"])
        # No question: submitting one runs the default model (slow here); the demo's pages with
        # questions were measured the same way (docs/mobile.md).
        course_services.student_register(username="alice", password=PASSWORD, join_code=course.join_code)
        self.project = project_create(owner=self.instructor, name="nile-mobile", language="en",
                                      questions_min=2, questions_max=4)
        article = Article.objects.create(project=self.project, title="Nile", split="train", rank=1)
        Paragraph.objects.create(article=article, position=0, context=EN_CONTEXT)
        user_create(username="mina", password=PASSWORD, role=User.Role.CROWDWORKER)
        self.course = course

    def phone(self, username: str | None = None, width: int = WIDTH):
        page = self.new_page({"width": width, "height": HEIGHT}, TIMEOUT_MS)
        if username:
            self.log_in(page, username, PASSWORD)
        return page

    def assert_fits(self, page, path: str, width: int = WIDTH) -> None:
        """The page at ``path`` has no horizontal scroll at ``width``; wide tables may scroll inside
        their labelled ``.table-scroll`` regions, which the document's scrollWidth does not count."""
        page.goto(self.live_server_url + path)
        page.wait_for_load_state()
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width + 1, f"{path} is {wide} px wide at {width} px; too wide: {self.too_wide(page)}"
        assert page.evaluate("document.body.scrollWidth") <= width + 1, path

    @staticmethod
    def too_wide(page) -> list[str]:
        """The outermost elements reaching past the viewport, to name in a failure."""
        return page.evaluate("""() => [...document.querySelectorAll("body *")]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
                         && !(e.parentElement && e.parentElement.getBoundingClientRect().right > window.innerWidth + 1))
            .slice(0, 5).map(e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
                             + (e.className && typeof e.className === "string" ? "." + e.className.split(" ").join(".") : "")
                             + " " + Math.round(e.getBoundingClientRect().right) + "px")""")

    def assert_menu_works(self, page, expected_links: list[str]) -> None:
        toggle = page.locator(".nav-toggle")
        menu = page.locator("#nav-menu")
        assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
        assert not menu.is_visible()
        bar = page.locator(".site-header").bounding_box()
        assert bar["height"] < 80, f"the closed bar is {bar['height']} px high"  # one line, not three
        toggle.focus()
        page.keyboard.press("Enter")  # a real <button>: the keyboard opens it
        assert toggle.get_attribute("aria-expanded") == "true" and menu.is_visible()
        for name in expected_links:
            assert menu.get_by_role("link", name=name, exact=True).is_visible(), name
        page.keyboard.press("Escape")
        assert toggle.get_attribute("aria-expanded") == "false" and not menu.is_visible()
        assert page.evaluate("document.activeElement.classList.contains('nav-toggle')")
        toggle.click()
        menu.get_by_role("link", name=expected_links[0], exact=True).click()  # the mouse, to a page
        page.wait_for_load_state()

    def test_every_main_page_fits_a_phone_and_the_menu_works_per_role(self) -> None:
        r, c, p = self.round.pk, self.course.pk, self.project.pk
        anon = self.phone()
        for name in ("accounts:login", "courses:signup", "accounts:password_reset"):
            self.assert_fits(anon, reverse(name))
        self.assert_menu_works(anon, ["Sign in", "Sign up"])

        student = self.phone("alice")
        for path in (reverse("collector:dashboard"), reverse("collector:validate"),
                     reverse("collector:round_write", args=[r]), reverse("accounts:settings"),
                     reverse("accounts:password_change")):
            self.assert_fits(student, path)
        self.screenshot(student, "mobile-student", docs=False)
        self.assert_menu_works(student, ["Dashboard", "Validate"])
        assert student.url == self.url("collector:dashboard")

        instructor = self.phone("prof")
        for name, args in [("courses:course_list", []), ("collector:course_detail", [c]),
                           ("collector:round_detail", [r]), ("collector:round_settings", [r]),
                           ("collector:review_queue", [r]), ("collector:round_quality", [r]),
                           ("evaluation:round_report", [r]), ("annotation:project_list", []),
                           ("annotation:project_dashboard", [p]), ("annotation:project_settings", [p]),
                           ("annotation:project_paragraphs", [p]), ("annotation:project_flags", [p]),
                           ("annotation:project_import", [p]), ("annotation:project_invites", [p]),
                           ("evaluation:project_report", [p]), ("collector:validate", []),
                           ("accounts:settings", [])]:
            self.assert_fits(instructor, reverse(name, args=args))
        self.assert_menu_works(instructor, ["Courses", "Validate", "Annotation"])
        assert instructor.locator("#nav-menu").get_by_role("link", name="Dashboard").count() == 0

        crowd = self.phone("mina")
        for path in (reverse("annotation:task_list"), reverse("accounts:settings")):
            self.assert_fits(crowd, path)
        crowd.goto(self.url("annotation:task_list"))
        crowd.locator(f"form[action='{reverse('annotation:task_start', args=[p, 'authoring'])}'] button").click()
        crowd.wait_for_url("**/annotation/sessions/**")
        assert crowd.evaluate("document.documentElement.scrollWidth") <= WIDTH
        self.assert_menu_works(crowd, ["Tasks"])
        self.assert_fits(crowd, reverse("collector:dashboard"))  # the clear 403 page fits too
        assert "This page is for students" in crowd.locator("main").inner_text()

    def seed_unbroken_text(self) -> None:
        """User text without a break opportunity wherever it is shown: a word of 200 "a", a long URL
        and Persian without spaces, in a question and its prediction, an appeal, names and titles,
        a paragraph, a span question and its answer, and a flag."""
        from django.utils import timezone

        from annotation.models import QuestionFlag, SpanAnswer, SpanQuestion
        from collector.models import Appeal, Prediction, Question
        from modelhub.models import ModelVersion

        self.round.__class__.objects.filter(pk=self.round.pk).update(title=LONG_WORD)
        self.course.__class__.objects.filter(pk=self.course.pk).update(name=PERSIAN[:100])
        self.project.__class__.objects.filter(pk=self.project.pk).update(name=LONG_WORD[:100])
        alice = User.objects.get(username="alice")
        model = ModelVersion.objects.create(name="tiny-" + "m" * 90, kind="multiple_choice", path="/nowhere")
        for status in ("review", "appealed", "pending"):
            question = Question.objects.create(round=self.round, author=alice, prompt=f"{LONG_WORD} {LONG_URL} {PERSIAN}",
                                               choices=[LONG_WORD, LONG_URL, PERSIAN, "short"], correct_index=0,
                                               status=status, review_reason=LONG_URL, categories=["idioms"])
            Prediction.objects.create(question=question, status="done", model_version=model, probs=[.1, .2, .3, .4],
                                      predicted_index=3, fooled=True, computed_at=timezone.now())
        Appeal.objects.create(question=question.__class__.objects.get(status="appealed"), author=alice,
                              message=f"{LONG_WORD} {PERSIAN}")
        paragraph = Paragraph.objects.get(article__project=self.project)
        paragraph.context = f"{EN_CONTEXT} {LONG_WORD} {LONG_URL} {PERSIAN}"
        paragraph.save()
        paragraph.article.__class__.objects.filter(pk=paragraph.article_id).update(title=PERSIAN[:100])
        # A second one, still free, for the crowdworker's session page.
        Paragraph.objects.create(article=paragraph.article, position=1, context=paragraph.context)
        span = SpanQuestion.objects.create(project=self.project, paragraph=paragraph, author=self.instructor,
                                           qid="q-long", question=f"{PERSIAN} {LONG_WORD}?", status="submitted")
        SpanAnswer.objects.create(question=span, text=LONG_WORD, answer_start=paragraph.context.index(LONG_WORD))
        QuestionFlag.objects.create(question=span, raised_by=self.instructor, proposal="fix_answer", reason=LONG_URL,
                                    proposed_text=LONG_WORD)

    def test_long_unbroken_text_wraps_on_every_page_at_phone_and_desktop_widths(self) -> None:
        self.seed_unbroken_text()
        r, c, p = self.round.pk, self.course.pk, self.project.pk
        pages = {
            "alice": [("collector:dashboard", []), ("collector:validate", []), ("collector:round_write", [r])],
            "prof": [("inbox:inbox", []), ("courses:course_list", []), ("collector:course_detail", [c]),
                     ("collector:round_detail", [r]), ("collector:review_queue", [r]), ("collector:round_quality", [r]),
                     ("collector:validate", []), ("evaluation:round_report", [r]), ("evaluation:round_leaderboard", [r]),
                     ("annotation:project_list", []), ("annotation:project_dashboard", [p]),
                     ("annotation:project_paragraphs", [p]), ("annotation:project_flags", [p]),
                     ("evaluation:project_report", [p]), ("evaluation:project_leaderboard", [p])],
            "mina": [("annotation:task_list", [])],
        }
        charts = 0
        for width in (WIDTH, 1366):
            for username, names in pages.items():
                page = self.phone(username, width=width)
                for name, args in names:
                    self.assert_fits(page, reverse(name, args=args), width)
                    if width == WIDTH:
                        charts += self.assert_charts_fit(page)
                if username == "alice" and width == WIDTH:
                    page.goto(self.url("collector:dashboard"))
                    assert LONG_WORD in page.locator("main").inner_text()  # the text is there, wrapped
            crowd = self.phone("mina", width=width)
            if width == WIDTH:  # the session started here is the one shown at every width
                crowd.goto(self.url("annotation:task_list"))
                crowd.locator(f"form[action='{reverse('annotation:task_start', args=[p, 'authoring'])}'] button").click()
                crowd.wait_for_url("**/annotation/sessions/**")
                session = crowd.url.removeprefix(self.live_server_url)
            self.assert_fits(crowd, session, width)
            assert LONG_WORD in crowd.locator(".paragraph").inner_text()
        assert charts, "no chart was drawn on these pages"

    @staticmethod
    def assert_charts_fit(page) -> int:
        """Every drawn chart of ``page`` fits its box: nothing of it (axis, legend, title) is cut or
        scrolled; returns how many charts it checked."""
        page.wait_for_function("document.querySelectorAll('.vl-chart:not([data-vl-state])').length === 0")
        sizes = page.evaluate("""() => [...document.querySelectorAll('.vl-chart[data-vl-state="drawn"]')].map(c => {
            const drawing = c.querySelector('svg, canvas');
            const box = c.getBoundingClientRect();
            const parts = [...drawing.querySelectorAll('.role-title, .role-legend, .role-axis')]
                .map(e => e.getBoundingClientRect());
            return {chart: Math.round(drawing.getBoundingClientRect().width), box: c.clientWidth,
                    outside: Math.max(0, ...parts.map(r => Math.max(r.right - box.right, box.left - r.left))),
                    scroll: c.scrollWidth, figure: c.closest('figure').scrollWidth,
                    figureBox: c.closest('figure').clientWidth};
        })""")
        for size in sizes:
            assert size["chart"] <= size["box"] + 1 and size["scroll"] <= size["box"] + 1, (page.url, size)
            assert size["figure"] <= size["figureBox"] + 1, (page.url, size)
            assert size["outside"] <= 1, (page.url, size)  # title, legend and axes are not cut
        return len(sizes)

    def test_wide_screens_keep_the_links_in_the_bar_without_a_menu_button(self) -> None:
        page = self.phone("prof", width=1366)
        assert not page.locator(".nav-toggle").is_visible()
        for name in ("Courses", "Validate", "Annotation"):
            assert page.locator(".nav").get_by_role("link", name=name, exact=True).is_visible()
        assert page.locator(".site-header").bounding_box()["height"] < 80

    def test_a_crowdworker_joins_by_invite_link_on_a_phone(self) -> None:
        owner = self.phone("prof")
        owner.goto(self.url("annotation:project_invites", self.project.pk))
        owner.get_by_role("button", name="Create an invite link").click()
        owner.wait_for_load_state()
        link = owner.locator(".invite-item input.token-value").first.input_value()
        assert owner.evaluate("document.documentElement.scrollWidth") <= WIDTH
        self.screenshot(owner, "mobile-invites", docs=False, full_page=True)

        newcomer = self.phone()
        newcomer.goto(link)
        assert "Join nile-mobile" in newcomer.locator("h1").inner_text()
        newcomer.locator("#id_username").fill("zahra")
        newcomer.locator("#id_password1").fill(PASSWORD)
        newcomer.locator("#id_password2").fill(PASSWORD)
        newcomer.get_by_role("button", name="Make my account and join").click()
        newcomer.wait_for_url(self.url("annotation:task_list"))
        assert "Welcome to nile-mobile" in newcomer.locator("main").inner_text()
        assert User.objects.get(username="zahra").role == User.Role.CROWDWORKER

        owner.get_by_role("button", name="Revoke").click()
        owner.wait_for_load_state()
        newcomer.goto(link)
        assert "withdrawn by the project" in newcomer.locator("main").inner_text()
