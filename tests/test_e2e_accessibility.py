"""axe-core (npm, pinned in package-lock.json) on the main pages of every role, in English and
Persian, at phone (390 px) and desktop width: no serious or critical violation (issue 30 §9).

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

        self.project = project_create(owner=prof, name="nile-a11y", language="en", questions_min=2, questions_max=4)
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
        self.sessions = {"mina": session_start_next(user=mina, project=self.project),
                         "sara": session_start_next(user=sara, project=self.project, kind="second_pass")}

    def signed_in(self, username: str, viewport: dict[str, int], language: str):
        page = self.new_page(viewport, TIMEOUT_MS)
        page.context.add_init_script(path=str(AXE))  # every page the context opens has axe, CSP or not
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

    def check_pages(self, username: str, paths: list[str], language: str, found: dict) -> None:
        for viewport in (PHONE, DESKTOP):
            page = self.signed_in(username, viewport, language)
            for path in paths:
                page.goto(self.live_server_url + path)
                for violation in self.violations(page, language):
                    found.setdefault((path, language, viewport["width"]), []).append(violation)

    def check_crowdworker(self, language: str, found: dict) -> None:
        """The task list and the annotate page of "mina", the second pass of "sara"."""
        for viewport in (PHONE, DESKTOP):
            for username, paths in (("mina", [reverse("annotation:task_list")]), ("sara", [])):
                page = self.signed_in(username, viewport, language)
                for path in [*paths, reverse("annotation:session", args=[self.sessions[username].pk])]:
                    page.goto(self.live_server_url + path)
                    if "sessions" in path:
                        page.locator("#paragraph").wait_for()
                    for violation in self.violations(page, language):
                        found.setdefault((path, language, viewport["width"]), []).append(violation)

    def test_no_serious_or_critical_axe_violation_on_the_main_pages_of_every_role(self) -> None:
        r, c = self.round.pk, self.course.pk
        found: dict = {}
        self.charts = 0
        for language in ("en", "fa"):
            self.check_pages("alice", [reverse("collector:dashboard"), reverse("collector:round_write", args=[r])],
                             language, found)
            self.check_pages("prof", [reverse("collector:course_detail", args=[c]),
                                      reverse("collector:round_detail", args=[r]),
                                      reverse("collector:review_queue", args=[r]), reverse("collector:validate"),
                                      reverse("evaluation:round_report", args=[r]),
                                      reverse("collector:round_quality", args=[r]),
                                      reverse("evaluation:round_leaderboard", args=[r])], language, found)
            self.check_crowdworker(language, found)
        report = "\n".join(f"{where}: {v['impact']} {v['id']} ({v['help']}): {v['nodes']}"
                           for where, violations in found.items() for v in violations)
        assert self.charts, "no chart was drawn: the charts were not checked"
        assert not found, "axe found serious or critical violations:\n" + report
