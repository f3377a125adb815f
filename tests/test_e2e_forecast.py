"""End to end (issue 29 §1): in a round whose course has a scored earlier round, the author page shows
the survival forecast after typing; in a course without one it says there are not enough scored
questions yet. Real Chromium against a live Daphne server (``tests.browser``), tiny BERT live model.
"""
import re
from pathlib import Path
from unittest import mock

import pytest

from accounts.models import User
from accounts.services import user_create
from collector.models import SurvivalForecastJob
from collector.presentation.forecast import forecast_is_shown
from collector.services.forecast import forecast_job_run, forecast_job_start
from collector.services.rounds import round_create
from collector.tests.forecast_factories import scored_course_round
from courses.services import course_create, student_register
from modelhub.services import model_version_register
from tests.browser import CHROMIUM, BrowserTestCase

pytestmark = pytest.mark.browser

PASSWORD = "a-long-test-password-42"
PROMPT = "the man ate the whole cake . he"
CHOICES = ["was very hungry .", "was not hungry .", "gave the cake to a dog .", "is good at math ."]
TIMEOUT_MS = 30_000
SHOWN = re.compile(r"^(Likely|Unlikely) to survive cross-validation \(about \d+%\)\.$")


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class SurvivalForecastEndToEndTests(BrowserTestCase):
    def setUp(self) -> None:
        instructor = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        model = model_version_register(name="tiny-bert-e2e", kind="multiple_choice", path=str(self.model_dir),
                                       revision="e2e")
        self.scored = course_create(owner=instructor, name="NLP 101")
        earlier = round_create(course=self.scored, name="r0", title="Round zero", live_model=model)
        self.round = round_create(course=self.scored, name="r1", title="Round one", live_model=model)
        self.fresh = round_create(course=course_create(owner=instructor, name="NLP 102"), name="f1",
                                  title="Fresh round", live_model=model)
        student = student_register(username="alice", password=PASSWORD, join_code=self.scored.join_code)
        from courses.services import course_join

        course_join(user=student, join_code=self.fresh.course.join_code)
        scored_course_round(earlier, student, 300, planted=True, seed=3)
        with mock.patch("collector.services.forecast.task_enqueue"):
            job = forecast_job_start(round_=earlier)
        assert forecast_is_shown(forecast_job_run(job_id=job.pk))
        self.open_page(TIMEOUT_MS)
        self.log_in(self.page, "alice", PASSWORD)
        self.page.wait_for_url(self.url("collector:dashboard"))

    def write_draft(self, round_) -> str:
        page = self.page
        page.goto(self.url("collector:round_write", round_.pk))
        forecast = page.locator("#survival-forecast")
        page.get_by_label("Prompt").fill(PROMPT)
        for position, text in enumerate(CHOICES):
            page.get_by_label(f"Completion {'ABCD'[position]}", exact=True).fill(text)
        page.wait_for_selector(".choice-row.is-pick")
        assert forecast.is_hidden()  # no answer marked: no forecast yet
        page.locator("#id_answer_0").check()
        forecast.wait_for(state="visible")
        text = forecast.inner_text()
        # A screen reader hears it with the model's guess, through the page's polite region, once it settled.
        page.wait_for_function("t => document.getElementById('announcer').textContent.includes(t)", arg=text)
        return text

    def test_the_forecast_shows_after_typing_in_a_course_with_a_scored_round(self) -> None:
        assert SHOWN.match(self.write_draft(self.round))
        assert self.page.locator("#survival-forecast.survival-likely, #survival-forecast.survival-unlikely").count() == 1
        assert SurvivalForecastJob.objects.filter(course=self.scored, usable=True).exists()

    def test_a_course_without_scored_questions_says_so(self) -> None:
        assert self.write_draft(self.fresh) == "Survival forecast: not enough scored questions yet."
