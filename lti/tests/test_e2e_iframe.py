"""End to end in real Chromium: the LMS's course page embeds Stumper in an iframe; the OIDC login, the
launch and the round page all happen inside it. A page outside an LTI session stays unframeable."""
from pathlib import Path

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.services import user_create
from annotation.tests.factories import EN_CONTEXT, add_paragraphs, make_project
from collector.services.rounds import round_create
from courses.services import course_create
from lti.models import ContextLink
from lti.services.registration import platform_register
from lti.tests.platform_sim import ROLE_LEARNER, PlatformSimulator
from modelhub.services import model_version_register
from tests.browser import CHROMIUM, BrowserTestCase

pytestmark = pytest.mark.browser


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class LmsIframeEndToEndTests(BrowserTestCase):
    def setUp(self) -> None:
        self.lms = PlatformSimulator(host="localhost").__enter__()  # same site as the live server (HTTP)
        self.instructor = instructor = user_create(username="prof", password="pw-E2E-long-enough-1",
                                                   role=User.Role.INSTRUCTOR)
        course = course_create(owner=instructor, name="NLP 101")
        model = model_version_register(name="tiny-bert-lti", kind="multiple_choice",
                                                path=str(self.model_dir), revision="e2e")
        self.round = round_create(course=course, name="lti-e2e", title="Round in the LMS", live_model=model)
        platform = platform_register(created_by=instructor, **self.lms.registration())
        ContextLink.objects.create(platform=platform, context_id=self.lms.context_id, course=course)

    def tearDown(self) -> None:
        super().tearDown()
        self.lms.__exit__(None, None, None)

    def _open_in_the_lms(self, custom: dict, sub: str = "browser-student"):
        """The simulated LMS's course page with the assignment's launch in its iframe ("tool")."""
        claims = self.lms.resource_link_claims(sub=sub, roles=[ROLE_LEARNER], custom=custom)
        launch_url = self.live_server_url + reverse("lti:launch")
        params = self.lms.login_params(claims, tool_launch_url=launch_url)
        course_page = (f"{self.lms.url}/course/{params['lti_message_hint']}?tool_login={self.live_server_url}/lti/login/"
                       f"&plain={self.live_server_url}/accounts/login/")
        self.open_page()
        self.page.goto(course_page)
        return self.page.frame(name="tool")

    def test_student_launches_inside_the_lms_iframe(self) -> None:
        frame = self._open_in_the_lms({"stumper_round_id": str(self.round.pk)})
        frame.wait_for_url(f"**/rounds/{self.round.pk}/write/")
        frame.wait_for_selector("text=Round in the LMS")
        assert User.objects.get(lti_identities__subject="browser-student").enrollments.filter(
            course=self.round.course).exists()
        # The sign-in page outside an LTI session keeps X-Frame-Options: DENY: Chromium refuses to show it.
        plain = self.page.frame(name="plain")
        plain.wait_for_url(lambda url: url != "about:blank" and "/accounts/login/" not in url)
        assert plain.url.startswith("chrome-error://") and "password" not in plain.content()

    def test_student_annotates_a_project_inside_the_lms_iframe(self) -> None:
        project = make_project(self.instructor, name="Nile in the LMS")
        add_paragraphs(project, [EN_CONTEXT])
        frame = self._open_in_the_lms({"stumper_project_id": str(project.pk)})
        frame.wait_for_url(f"**/annotation/#project-{project.pk}")
        frame.locator(f"#project-{project.pk}").get_by_role("button", name="Write questions").click()  # a POST, with CSRF
        frame.wait_for_url("**/annotation/sessions/*/")
        frame.wait_for_selector("text=Mediterranean Sea")  # the paragraph to write questions on
        student = User.objects.get(lti_identities__subject="browser-student")
        assert student.role == User.Role.STUDENT and project.members.filter(worker=student).exists()
