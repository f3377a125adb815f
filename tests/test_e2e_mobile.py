"""Phones (390x844) in real Chromium: every main page of every role fits the screen's width
(document.scrollWidth <= 390), and the navigation folds behind a menu button that works with
the keyboard (aria-expanded, Enter, Escape) and the mouse. Also the crowdworker's invite link,
followed on a phone from sign-up to the task list."""
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

    def assert_fits(self, page, path: str) -> None:
        page.goto(self.live_server_url + path)
        page.wait_for_load_state()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= WIDTH, f"{path} is {width} px wide at {WIDTH} px; too wide: {self.too_wide(page)}"
        assert page.evaluate("document.body.scrollWidth") <= WIDTH, path

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
        for name in ("accounts:login", "accounts:signup", "accounts:password_reset"):
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
        for name, args in [("collector:course_list", []), ("collector:course_detail", [c]),
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
