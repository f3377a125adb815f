"""End to end in real Chromium: a course with one instructor and the default validation settings
finishes a round (issue 30 §2).

prof teaches alone; alice wrote 10 questions in a round with the defaults (two agreeing validators,
students validate once it has closed, and alice has no classmate). The inbox counts the 10 questions
awaiting validation and names the round that cannot accept them; the round page warns and links to
the teaching staff. prof adds tara (by e-mail) as a teaching assistant, with each role's powers
written beside the form, and makes an instructor invite link; dan opens it signed out, makes his
instructor account and lands on the course as a co-instructor (no /admin, no LMS). The warning is
gone; tara validates on the validation page while the round is open, prof too, and the question is
accepted.

Screenshot: course-staff (docs/img/ with STUMPER_SCREENSHOTS=1).
"""
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from accounts.models import User
from accounts.services import user_create
from collector.models import Question, QuestionStatus
from collector.services.rounds import round_create
from collector.tests.factories import question_data, validate
from courses.presentation import STAFF_ROLE_POWERS
from courses.selectors import user_manages_course
from courses.services import course_create, student_register
from tests.browser import CHROMIUM, BrowserTestCase

pytestmark = pytest.mark.browser

PASSWORD = "a-long-test-password-42"
VIEWPORT = {"width": 1366, "height": 900}
TIMEOUT_MS = 30_000


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class SmallCourseFinishesARoundEndToEndTests(BrowserTestCase):
    def setUp(self) -> None:
        self.prof = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        self.course = course_create(owner=self.prof, name="NLP 101")
        self.round = round_create(course=self.course, name="idioms", title="Idioms",
                                  closes_at=timezone.now() + timedelta(days=2))
        alice = student_register(username="alice", password=PASSWORD, join_code=self.course.join_code)
        self.tara = user_create(username="tara", password=PASSWORD, email="tara@example.org")  # a student account
        self.questions = [
            Question.objects.create(round=self.round, author=alice, **question_data(
                prompt=f"Question {i}: the man ate the whole cake. He",
                choices=[f"was very hungry {i}.", "was not hungry.", "gave it to a dog.", "is good at math."]))
            for i in range(10)
        ]

    def signed_in(self, username: str):
        page = self.new_page(VIEWPORT, TIMEOUT_MS)
        self.log_in(page, username, PASSWORD)
        return page

    def test_one_instructor_adds_a_ta_and_a_co_instructor_and_questions_get_accepted(self) -> None:
        page = self.signed_in("prof")
        page.wait_for_url(self.url("inbox:inbox"))
        waiting = page.get_by_test_id("inbox-validations")
        assert "10 questions await validation" in waiting.inner_text()
        assert "10 questions await validation" in page.locator(".page-header").inner_text()
        waiting.get_by_role("link", name="Idioms: no question can be accepted").click()

        page.wait_for_url(f"{self.url('collector:round_detail', self.round.pk)}#validator-capacity-heading")
        warning = page.get_by_test_id("validator-capacity")
        assert "No question of this round can be accepted" in warning.inner_text()
        warning.get_by_role("link", name="Add co-instructors or teaching assistants").click()

        page.wait_for_url(self.url("courses:course_staff", self.course.pk))
        staff = page.get_by_test_id("course-staff")
        for words in STAFF_ROLE_POWERS.values():
            assert words in staff.inner_text()
        page.get_by_label("Username or e-mail").fill("alice")
        page.get_by_role("radio", name="Teaching assistant").check()
        page.get_by_role("button", name="Add to the teaching staff").click()
        summary = page.locator("#staff-errors")
        assert "alice is a student of this course" in summary.inner_text()
        assert summary.evaluate("element => element === document.activeElement")
        page.get_by_label("Username or e-mail").fill("tara@example.org")
        page.get_by_role("button", name="Add to the teaching staff").click()
        assert "tara is now a teaching assistant of NLP 101." in page.locator("main").inner_text()

        page.get_by_role("button", name="Create an instructor invite link").click()
        link = page.get_by_label("Invite link").input_value()
        assert link.startswith(self.live_server_url + "/courses/instructor-invite/")
        self.screenshot(page.get_by_test_id("course-staff"), "course-staff")

        newcomer = self.new_page(VIEWPORT, TIMEOUT_MS)
        newcomer.goto(link)
        newcomer.locator("#id_username").fill("dan")
        newcomer.locator("#id_password1").fill(PASSWORD)
        newcomer.locator("#id_password2").fill(PASSWORD)
        newcomer.get_by_role("button", name="Make my account and join").click()
        newcomer.wait_for_url(self.url("collector:course_detail", self.course.pk))
        assert "you are now one of its instructors" in newcomer.locator("main").inner_text()
        assert newcomer.get_by_role("navigation", name="Main").get_by_role("link", name="Inbox").is_visible()
        dan = User.objects.get(username="dan")
        assert dan.is_instructor and user_manages_course(user=dan, course=self.course)

        page.goto(self.url("collector:round_detail", self.round.pk))
        assert page.get_by_test_id("validator-capacity").count() == 0  # three validators now

        ta = self.signed_in("tara")
        ta.get_by_role("navigation", name="Main").get_by_role("link", name="Validate").click()
        prompt = ta.locator("#validate-prompt").inner_text()
        question = next(q for q in self.questions if q.prompt == prompt)
        ta.locator(".validate-choice", has_text=question.choices[question.correct_index]).click()
        ta.get_by_role("button", name="Save and next").click()
        assert "Thank you, your answer is saved" in ta.locator("main").inner_text()
        validate(Question.objects.get(pk=question.pk), self.prof, question.correct_index)
        assert Question.objects.get(pk=question.pk).status == QuestionStatus.ACCEPTED

        page.goto(self.url("inbox:inbox"))
        assert "9 questions await validation" in page.get_by_test_id("inbox-validations").inner_text()
        assert not self.console_errors
