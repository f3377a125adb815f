"""End to end: the report pages draw their Vega-Lite charts in real Chromium, from the vendored
libraries only (no request leaves the server), with no console errors; /api/redoc/ fetches no
fonts or logos from outside either.

Screenshots at 1366x900 (docs/img/ with STUMPER_SCREENSHOTS=1, for docs/charts.md).
"""
from pathlib import Path
from unittest import mock

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.services import user_create
from collector.models import Round
from collector.services.rounds import round_create
from collector.tests.factories import FIXED_PREDICTION, validate
from courses.services import course_create, student_register
from evaluation.reports.ambiguity import retrieval_section, selectional_section
from evaluation.services import reports as report_services
from evaluation.tests.ambiguity_data import retrieval_result, selectional_probe
from evaluation.tests.factories import (
    artifact_questions,
    finished_report,
    qa_model_version,
    scoring_run_with_predictions,
    span_project,
)
from tests.browser import CHROMIUM, BrowserTestCase
from tests.test_e2e_authoring import PASSWORD

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1366, "height": 900}


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class ReportChartsEndToEndTests(BrowserTestCase):
    build_model = "import sys"  # no model: the reports read stored predictions

    def setUp(self) -> None:
        self.instructor = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        course = course_create(owner=self.instructor, name="NLP 101")
        self.round = round_create(course=course, name="e2e-reports", title="Round one",
                                           categories=["idioms", "negation", "other"])
        Round.objects.filter(pk=self.round.pk).update(peer_validation="always", validations_required=1)
        alice = student_register(username="alice", password=PASSWORD, join_code=course.join_code)
        bob = student_register(username="bob", password=PASSWORD, join_code=course.join_code)
        with mock.patch("collector.services.questions.predict_examples", return_value=[FIXED_PREDICTION]):
            made = artifact_questions(alice, self.round)
        scoring_run_with_predictions(self.round, {q.pk: [pick, pick] for q, pick in made})
        scoring_run_with_predictions(self.round, {q.pk: [0] for q, _ in made}, kind="answer_only")
        for question, _ in made[:6]:
            validate(question, bob, 0)
        run = report_services.evaluation_start_round(round_=self.round, user=self.instructor,
                                                         config={"k": 5, "max_steps": 50, "min_count": 2})
        report_services.evaluation_run(run_id=run.pk)
        # Its questions were answered by a QA model in the loop: the report then has model scores (EM/F1).
        self.project = span_project(self.instructor, qa_model_version("qa-e2e"))
        with mock.patch("evaluation.services.ambiguity.ambiguity_selectional_section", return_value=None), \
                mock.patch("evaluation.services.ambiguity.ambiguity_retrieval_section", return_value=None):
            finished_report(self.instructor, project=self.project)

    def signed_in(self):
        page = self.new_page(VIEWPORT)
        self.outside: list[str] = []
        page.on("pageerror", lambda error: self.console_errors.append(str(error)))
        page.on("request", self._record_request)
        self.log_in(page, "prof", PASSWORD)
        return page

    def _record_request(self, request) -> None:
        if not request.url.startswith((self.live_server_url, "data:", "blob:", "ws://localhost")):
            self.outside.append(request.url)

    def charts_drawn(self, page, expected: int) -> None:
        """Every chart of the page became an <svg> made by vega-embed, with its legend and title."""
        charts = page.locator(".vl-chart")
        assert charts.count() == expected
        page.wait_for_function(
            "n => document.querySelectorAll('.vl-chart[data-vl-state=drawn] svg.marks').length === n", arg=expected)
        for i in range(expected):
            svg = charts.nth(i).locator("svg.marks")
            assert svg.locator(".role-title").count() == 1
            assert svg.locator(".role-legend").count() >= 1
            assert svg.locator(".role-axis-title").count() == 2

    def test_report_and_quality_pages_draw_their_charts_from_vendored_files(self) -> None:
        page = self.signed_in()
        page.goto(self.live_server_url + reverse("evaluation:round_report", args=[self.round.pk]))
        # The newest report comes first; the form to start another stays folded away.
        assert page.locator("details.new-report").get_attribute("open") is None
        assert page.get_by_role("button", name="Compute a new report").is_hidden()
        self.charts_drawn(page, expected=3)  # categories, accuracy, label balance
        assert page.locator("p.meaning").count() >= 3
        self.screenshot(page, "report-round")
        self.screenshot(page.locator("#section-codah"), "report-round-codah")
        self.screenshot(page.locator("#chart-lexical-label_balance"), "report-round-lexical")
        # A tooltip with the exact number when hovering a bar.
        page.locator("#chart-codah-categories svg.marks .mark-rect path").first.hover()
        assert page.locator("#vg-tooltip-element").inner_text().split() == ["Category", "idioms", "questions", "6"]
        page.goto(self.live_server_url + reverse("collector:round_quality", args=[self.round.pk]))
        self.charts_drawn(page, expected=3)  # accuracy, workload (no coach warnings), item map
        self.screenshot(page, "report-quality")
        page.goto(self.live_server_url + reverse("evaluation:project_report", args=[self.project.pk]))
        self.charts_drawn(page, expected=2)  # EM/F1 per split, label balance
        self.screenshot(page, "report-project")
        self.screenshot(page.locator("#section-squad"), "report-project-squad")
        page.goto(self.live_server_url + reverse("annotation:project_dashboard", args=[self.project.pk]))
        self.charts_drawn(page, expected=3)  # done per split, questions per paragraph, answer lengths
        assert self.console_errors == [] and self.outside == []

    def test_the_ambiguity_tables_name_their_columns_with_formulas(self) -> None:
        project = span_project(self.instructor, qa_model_version("qa-probes"), name="probes")
        with mock.patch("evaluation.services.ambiguity.ambiguity_selectional_section",
                        return_value=selectional_section(selectional_probe(64, 69), source="R16")), \
                mock.patch("evaluation.services.ambiguity.ambiguity_retrieval_section",
                           return_value=retrieval_section(retrieval_result(reader=True), source="three jobs")):
            finished_report(self.instructor, project=project)
        page = self.signed_in()
        page.goto(self.live_server_url + reverse("evaluation:project_report", args=[project.pk]))
        self.charts_drawn(page, expected=4)  # EM/F1, label balance, recall per gender, disparity
        for section, labels in {
            "ambiguity_selectional": ["Gender", "Gold names", "Found", "Recall", "95% interval, low",
                                      "95% interval, high"],
            "ambiguity_retrieval": ["Occupation", "Retrieved", "Passages about women", "Passages about men",
                                    "Passages about no one known", "Disparity D", "Women beyond baseline (D*)"],
        }.items():
            headers = page.locator(f"#section-{section} .report-table thead th")
            assert headers.all_inner_texts() == labels
            for i in range(headers.count()):  # every one a dotted "help" term with its formula as the tooltip
                tip = headers.nth(i).locator(".tip")
                assert tip.get_attribute("title")
                assert tip.evaluate("e => getComputedStyle(e).cursor") == "help"
        recall = page.locator("#section-ambiguity_selectional .report-table tbody tr").first
        assert recall.inner_text().split("\t")[3] == "64.0%"
        assert page.locator("#section-ambiguity_retrieval .report-table th .tip", has_text="Disparity D") \
            .get_attribute("title") == "D(occ) = count_occ(female) − count_occ(male), in [−k, k]; positive: more women"
        self.screenshot(page.locator("#section-ambiguity_selectional"), "report-ambiguity-selectional", docs=False)
        self.screenshot(page.locator("#section-ambiguity_retrieval"), "report-ambiguity-retrieval", docs=False)
        assert self.console_errors == [] and self.outside == []

    def test_the_socket_client_module_connects_and_gives_up_on_4403(self) -> None:
        page = self.signed_in()
        page.goto(self.live_server_url + reverse("collector:round_detail", args=[self.round.pk]))
        page.wait_for_function("() => document.getElementById('scoring-connection').textContent === 'Live updates on.'")
        # The same module on a socket this user may not use: the server closes with 4403, no retry.
        result = page.evaluate("""async (path) => {
            const { connectSocket } = await import("/static/js/lib/socket.js");
            return await new Promise((resolve) => {
                const seen = {retries: 0, closes: []};
                connectSocket(path, {
                    onClose: (event) => seen.closes.push(event.code),
                    onRetry: () => { seen.retries += 1; },
                    onForbidden: () => setTimeout(() => resolve(seen), 1500),
                });
            });
        }""", "/ws/rounds/999999/scoring/")
        assert result == {"retries": 0, "closes": [4403]}
        assert self.console_errors == [] and self.outside == []

    def test_redoc_fetches_nothing_from_outside(self) -> None:
        page = self.signed_in()
        page.goto(self.live_server_url + "/api/redoc/")
        page.locator(".api-content").first.wait_for()
        page.wait_for_load_state("networkidle")
        assert self.outside == [] and self.console_errors == []
