"""End to end in Chromium under the Content-Security-Policy of the settings (production's default,
which the test settings share): the report charts draw with Vega's expression interpreter (no eval),
the API docs start from files, a page's socket connects, and nothing breaks the policy: no
``securitypolicyviolation`` event, no console error.
"""
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.urls import reverse

from accounts.models import User
from accounts.services import user_create
from evaluation.tests.factories import finished_report, qa_model_version, span_project
from tests.browser import CHROMIUM, BrowserTestCase
from tests.test_e2e_authoring import PASSWORD

pytestmark = pytest.mark.browser

# Added before any script of the page runs (through the browser's devtools, which the policy does not cover).
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation",
    (event) => window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`));
"""


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class ContentSecurityPolicyEndToEndTests(BrowserTestCase):
    build_model = "import sys"  # no model: the report reads stored predictions

    def setUp(self) -> None:
        self.instructor = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        # A QA model answered its questions: the report has its two charts (the people's and the model's).
        self.project = span_project(self.instructor, qa_model_version("qa-csp"))
        with mock.patch("evaluation.services.ambiguity.ambiguity_selectional_section", return_value=None), \
                mock.patch("evaluation.services.ambiguity.ambiguity_retrieval_section", return_value=None):
            finished_report(self.instructor, project=self.project)

    def signed_in(self):
        page = self.new_page()
        page.context.add_init_script(RECORD_VIOLATIONS)
        page.on("pageerror", lambda error: self.console_errors.append(str(error)))
        self.log_in(page, "prof", PASSWORD)
        return page

    def assert_nothing_refused(self, page) -> None:
        assert page.evaluate("window.cspViolations") == []
        assert self.console_errors == []

    def test_report_charts_draw_under_the_policy_without_eval(self) -> None:
        page = self.signed_in()
        response = page.goto(self.live_server_url + reverse("evaluation:project_report", args=[self.project.pk]))
        policy = response.headers["content-security-policy"]
        assert policy == settings.STUMPER_CONTENT_SECURITY_POLICY
        assert "'unsafe-eval'" not in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
        page.wait_for_function("() => document.querySelectorAll('.vl-chart[data-vl-state=drawn] svg.marks').length === 2")
        assert page.locator(".vl-chart[data-vl-state=failed]").count() == 0
        # Vega's expressions run in the interpreter (with its default `new Function` the policy refuses
        # them: the charts fail and the page records an 'unsafe-eval' violation): a bar's tooltip works.
        page.locator(".vl-chart svg.marks .mark-rect path").first.hover()
        page.locator("#vg-tooltip-element").wait_for()
        page.goto(self.live_server_url + reverse("annotation:project_dashboard", args=[self.project.pk]))
        page.wait_for_function("() => document.querySelectorAll('.vl-chart[data-vl-state=drawn] svg.marks').length === 3")
        self.assert_nothing_refused(page)

    def test_a_socket_connects_from_the_page_under_the_policy(self) -> None:
        page = self.signed_in()
        page.goto(self.live_server_url + reverse("accounts:settings"))
        # The page's own origin passes the handshake's Origin check and connect-src 'self'; the
        # consumer then refuses this user with 4403, which only an open socket can hear.
        result = page.evaluate("""async (path) => {
            const { connectSocket } = await import("/static/js/lib/socket.js");
            return await new Promise((resolve) => {
                const closes = [];
                connectSocket(path, {
                    onClose: (event) => closes.push(event.code),
                    onForbidden: () => resolve(closes),
                });
            });
        }""", "/ws/rounds/999999/scoring/")
        assert result == [4403]
        self.assert_nothing_refused(page)

    def test_the_api_docs_start_from_files(self) -> None:
        page = self.signed_in()
        page.goto(self.live_server_url + "/api/docs/")
        page.locator(".swagger-ui .opblock").first.wait_for()
        self.assert_nothing_refused(page)
        page.goto(self.live_server_url + "/api/redoc/")
        page.locator(".api-content").first.wait_for()
        page.wait_for_load_state("networkidle")
        self.assert_nothing_refused(page)

    def test_the_new_token_is_selected_on_focus_without_an_inline_handler(self) -> None:
        page = self.signed_in()
        page.goto(self.live_server_url + reverse("accounts:settings"))
        page.get_by_role("button", name="Create token").click()
        field = page.locator("#new-token")
        field.focus()
        assert field.evaluate("e => e.selectionStart === 0 && e.selectionEnd === e.value.length && e.value.length > 0")
        self.assert_nothing_refused(page)
