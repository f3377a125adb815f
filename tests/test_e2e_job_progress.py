"""End to end in Chromium: the leaderboard follows its running evaluation's own job, never loops.

The leaderboard's progress card once opened the socket of the *report* with the evaluation's id;
that report had finished, so the page saw "done" and reloaded itself about 2.5 times a second for
the whole evaluation. Here a finished report and a queued evaluation share an id: the page must
show the evaluation's own state and load once. On the PostgreSQL + Redis pass the worker's push
(``core.jobs``) also reaches the browser through the live server's channel layer, without polling.
"""
import os
from pathlib import Path

import pytest
from django.utils import timezone

from accounts.models import User
from accounts.services import user_create
from collector.services.rounds import round_create
from core.jobs import job_claim
from courses.services import course_create
from evaluation.models import EvaluationRun, ModelEvaluation
from modelhub.services import model_version_register
from tests.browser import CHROMIUM, BrowserTestCase
from tests.test_e2e_authoring import PASSWORD

pytestmark = pytest.mark.browser
SHARED_ID = 4242  # the finished report's id and the running evaluation's


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class LeaderboardJobProgressEndToEndTests(BrowserTestCase):
    build_model = "import sys"  # no model: nothing is evaluated, the job is moved by hand

    def setUp(self) -> None:
        instructor = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        course = course_create(owner=instructor, name="NLP 101")
        self.round = round_create(course=course, name="e2e-board", title="Round one", categories=["other"])
        version = model_version_register(name="tiny-mc", kind="multiple_choice", path="/models/tiny-mc")
        EvaluationRun.objects.create(pk=SHARED_ID, target="round", round=self.round, status="done", finished_at=timezone.now(),
                                     progress={"stage": "Done", "percent": 100.0})
        self.evaluation = ModelEvaluation.objects.create(pk=SHARED_ID, target="round", round=self.round, model_version=version,
                                                         question_ids=[], snapshot_id="0" * 64)

    def test_the_page_shows_the_evaluations_own_progress_and_loads_once(self) -> None:
        page = self.new_page()
        self.log_in(page, "prof", PASSWORD)
        loads: list[str] = []
        page.on("load", lambda: loads.append(page.url))
        page.goto(self.url("evaluation:round_leaderboard", self.round.pk))
        card = page.locator("[data-job-progress]")
        page.wait_for_function("() => document.querySelector('[data-job-progress] [data-field=connection]')"
                               ".textContent === 'Live updates on.'")
        assert card.get_attribute("data-socket-path") == f"/ws/evaluation/model-evaluations/{SHARED_ID}/"
        page.wait_for_timeout(2500)  # the old page had reloaded about six times by now
        assert len(loads) == 1
        assert card.locator("[data-field=status]").inner_text() == "Queued"
        assert card.locator("[data-field=progress]").inner_text() == "tiny-mc: Waiting for a worker (0%)."
        if os.environ.get("REDIS_URL"):  # the live server hears this process's push only through Redis
            from datetime import timedelta

            job_claim(ModelEvaluation, SHARED_ID, resumable=True, stale_after=timedelta(minutes=5),
                      progress=lambda stored: {"stage": "Loading the model", "percent": 5.0})
            page.wait_for_function("() => document.querySelector('[data-job-progress] [data-field=status]')"
                                   ".textContent === 'Running'")
            assert card.locator("[data-field=progress]").inner_text() == "tiny-mc: Loading the model (5%)."
            assert len(loads) == 1
        assert self.console_errors == []
