"""axe-core (npm, pinned in package-lock.json) on every page of every role (a visitor, a student, an
instructor, a project owner, a crowdworker), in English and Persian, at phone (390 px) and desktop
width: no serious or critical violation (issue 30 §9). One server and one browser for the module;
one test per role.

axe is added to every page of a browser context as a Playwright init script: it goes in through
the DevTools protocol, which the pages' Content-Security-Policy does not govern, so the policy stays
as strict as in production. The pages have data (questions in every state, a finished scoring run,
a submitted span-annotation session) so that their lists, tables and charts are drawn.
"""
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import user_create
from annotation.models import Article, Paragraph
from annotation.services.authoring import question_add, session_start_next, session_submit
from annotation.services.invites import invite_create
from annotation.services.projects import project_create
from annotation.tests.factories import EN_CONTEXT
from collector.models import Appeal, Prediction, Question
from collector.services.rounds import round_create
from collector.tests.factories import add_toy_questions, finished_scoring_run
from courses import services as course_services
from modelhub.models import ModelVersion
from tests.browser import CHROMIUM, DESKTOP, ROOT, BrowserTestCase
from tests.test_e2e_authoring import PASSWORD

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
#: Each page in both languages at phone and desktop width.
LOOKS = [(language, viewport) for language in ("en", "fa") for viewport in (PHONE, DESKTOP)]
TIMEOUT_MS = 30_000
# Everything axe checks by default (WCAG 2.0/2.1 A and AA and its best practices); only these
# impacts fail the test.
FAILING_IMPACTS = ("serious", "critical")
RUN_AXE = """async (impacts) => {
    const result = await window.axe.run(document, {resultTypes: ["violations"]});
    return result.violations.filter(v => impacts.includes(v.impact)).map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + " :: " + n.failureSummary.replace(/\\s+/g, " "))}));
}"""


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
@pytest.mark.skipif(not AXE.exists(), reason="needs axe-core from npm (npm ci)")
class AccessibilityEndToEndTests(BrowserTestCase):
    build_model = "import sys"  # no model needed: the pages, not predictions

    def setUp(self) -> None:
        prof = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        course = course_services.course_create(owner=prof, name="Commonsense reasoning")
        self.round = round_create(course=course, name="round-one", title="A first round",
                                  categories=["idioms", "negation"])
        self.course = course
        alice = course_services.student_register(username="alice", password=PASSWORD, join_code=course.join_code)
        add_toy_questions(self.round, alice, 6, seed=3, categories=(("idioms",), ("negation",)), status="accepted")
        finished_scoring_run(self.round, {q.pk: [i % 2 == 0] for i, q in enumerate(Question.objects.all())})
        model = ModelVersion.objects.create(name="tiny-mc", kind="multiple_choice", path="/nowhere")
        for status in ("review", "appealed", "pending"):
            question = Question.objects.create(round=self.round, author=alice, prompt=f"A {status} question. He",
                                               choices=["ran.", "sat.", "slept.", "ate."], correct_index=0,
                                               status=status, categories=["idioms"])
            Prediction.objects.create(question=question, status="done", model_version=model,
                                      probs=[.1, .2, .3, .4], predicted_index=3, fooled=True,
                                      computed_at=timezone.now())
            if status == "appealed":
                Appeal.objects.create(question=question, author=alice, message="It is right.")

        self.charts = self.checked = 0
        self.review_question = Question.objects.get(status="review")
        course_services.course_instructor_invite_renew(course=course)
        olga = user_create(username="olga", password=PASSWORD, role=User.Role.INSTRUCTOR)  # the project's owner
        self.project = project_create(owner=olga, name="nile-a11y", language="en", questions_min=2, questions_max=4)
        article = Article.objects.create(project=self.project, title="Nile", split="validation", rank=1)
        for position in range(3):  # one answered by "ali", others free for "mina"
            Paragraph.objects.create(article=article, position=position, context=EN_CONTEXT)
        ali = user_create(username="ali", password=PASSWORD, role=User.Role.CROWDWORKER)
        session = session_start_next(user=ali, project=self.project)
        for question, text in (("Which sea does the Nile empty into?", "the Mediterranean Sea"),
                               ("Where do the two branches meet?", "Khartoum")):
            question_add(session=session, user=ali, question=question,
                         answer={"text": text, "answer_start": EN_CONTEXT.index(text)})
        session_submit(session=session, user=ali)
        # The annotate page of "mina" and the second pass of "sara" (on ali's questions), started as
        # the task list's buttons start them.
        mina = user_create(username="mina", password=PASSWORD, role=User.Role.CROWDWORKER)
        sara = user_create(username="sara", password=PASSWORD, role=User.Role.CROWDWORKER)
        self.invite = invite_create(project=self.project, created_by=olga, days=7)
        self.sessions = {"mina": session_start_next(user=mina, project=self.project),
                         "sara": session_start_next(user=sara, project=self.project, kind="second_pass")}

    def pages(self) -> dict[str, tuple[str | None, list[str]]]:
        """Every page a user can open, by role: (who signs in, or None, and the paths). The crowdworker's
        session pages are checked on their own (:meth:`check_crowdworker`)."""
        r, c, p, q = self.round.pk, self.course.pk, self.project.pk, self.review_question.pk
        url = reverse
        return {
            "anonymous": (None, [
                url("accounts:login"), url("accounts:password_reset"), url("accounts:password_reset_done"),
                url("accounts:password_reset_confirm", args=["MQ", "not-a-token"]),
                url("accounts:password_reset_complete"), url("courses:signup"),
                url("annotation:invite_join", args=[self.invite.token]),
                url("courses:instructor_invite_join", args=[self.course.instructor_invite_token])]),
            "student": ("alice", [
                url("collector:dashboard"), url("collector:round_write", args=[r]), url("accounts:settings"),
                url("accounts:password_change"), url("accounts:password_change_done")]),
            "instructor": ("prof", [
                url("inbox:inbox"), url("courses:course_list"), url("collector:course_detail", args=[c]),
                url("courses:course_staff", args=[c]), url("lti:course_roster", args=[c]),
                url("collector:round_detail", args=[r]), url("collector:round_settings", args=[r]),
                url("collector:round_import", args=[r]), url("collector:review_queue", args=[r]),
                url("collector:question_review", args=[q]), url("collector:validate"),
                url("evaluation:round_report", args=[r]), url("collector:round_quality", args=[r]),
                url("evaluation:round_leaderboard", args=[r]),
                url("lti:platforms"), url("accounts:settings")]),
            "project owner": ("olga", [
                url("annotation:project_list"), url("annotation:project_dashboard", args=[p]),
                url("annotation:project_settings", args=[p]), url("annotation:project_import", args=[p]),
                url("annotation:project_paragraphs", args=[p]), url("annotation:project_flags", args=[p]),
                url("annotation:project_invites", args=[p]), url("evaluation:project_report", args=[p]),
                url("evaluation:project_leaderboard", args=[p])]),
        }

    def new_context_page(self, username: str | None, viewport: dict[str, int], language: str):
        """A page with axe in every document it opens, signed in as ``username`` (None: a visitor), in ``language``."""
        page = self.new_page(viewport, TIMEOUT_MS)
        page.context.add_init_script(path=str(AXE))  # every page the context opens has axe, CSP or not
        if username is not None:
            self.log_in(page, username, PASSWORD)  # in English (its labels), then the language asked for
        page.context.add_cookies([{"name": "django_language", "value": language, "url": self.live_server_url}])
        return page

    def violations(self, page, language: str) -> list[dict]:
        """axe's serious and critical violations of the page ``page`` shows, once its charts are drawn."""
        page.wait_for_load_state()
        assert page.locator("html").get_attribute("lang") == language, page.url  # the language asked for
        page.wait_for_function("document.querySelectorAll('.vl-chart:not([data-vl-state])').length === 0")
        self.charts += page.locator('.vl-chart[data-vl-state="drawn"]').count()
        return page.evaluate(RUN_AXE, list(FAILING_IMPACTS))

    def check(self, page, path: str, language: str, found: dict, ready: str | None = None) -> None:
        response = page.goto(self.live_server_url + path)
        assert response is not None and response.status == 200, (path, response and response.status)
        if ready:
            page.locator(ready).wait_for()
        self.checked += 1
        for violation in self.violations(page, language):
            found.setdefault((path, language, page.viewport_size["width"]), []).append(violation)

    def check_role(self, role: str) -> dict:
        username, paths = self.pages()[role]
        found: dict = {}
        for language, viewport in LOOKS:
            page = self.new_context_page(username, viewport, language)
            for path in paths:
                self.check(page, path, language, found)
            page.context.close()
        assert self.checked == len(LOOKS) * len(paths)
        return found

    def check_crowdworker(self) -> dict:
        """The task list, settings and annotate page of "mina", the second pass of "sara"."""
        found: dict = {}
        for language, viewport in LOOKS:
            for username, paths in (("mina", [reverse("annotation:task_list"), reverse("accounts:settings")]),
                                    ("sara", [])):
                page = self.new_context_page(username, viewport, language)
                for path in paths:
                    self.check(page, path, language, found)
                session = reverse("annotation:session", args=[self.sessions[username].pk])
                self.check(page, session, language, found, ready="#paragraph")
                page.context.close()
        return found

    def assert_none(self, found: dict) -> None:
        report = "\n".join(f"{where}: {v['impact']} {v['id']} ({v['help']}): {v['nodes']}"
                           for where, violations in found.items() for v in violations)
        assert not found, "axe found serious or critical violations:\n" + report

    def test_anonymous_pages(self) -> None:
        self.assert_none(self.check_role("anonymous"))

    def test_student_pages(self) -> None:
        self.assert_none(self.check_role("student"))

    def test_instructor_pages(self) -> None:
        found = self.check_role("instructor")
        assert self.charts, "no chart was drawn: the charts were not checked"
        self.assert_none(found)

    def test_project_owner_pages(self) -> None:
        self.assert_none(self.check_role("project owner"))

    def test_crowdworker_pages(self) -> None:
        self.assert_none(self.check_crowdworker())
