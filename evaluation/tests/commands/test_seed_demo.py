from io import StringIO
from unittest import mock

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from collector.models import Prediction, Question, Round
from collector.services.demo import DEMO_QUESTIONS
from courses.models import Course
from modelhub.services import model_version_default


def seed() -> str:
    out = StringIO()
    # Predictions are left to the worker; keep the (eager, in tests) task from loading MiniLM.
    with mock.patch("collector.services.questions.prediction_schedule") as schedule:
        call_command("seed_demo", stdout=out)
    seed.scheduled = schedule.call_count
    return out.getvalue()


@pytest.mark.django_db
def test_seed_creates_logins_course_round_and_questions():
    output = seed()

    assert "instructor" in output and "stumper-demo-instructor" in output and "alice" in output
    assert authenticate(username="instructor", password="stumper-demo-instructor").is_instructor
    for name in ("alice", "bob"):
        assert authenticate(username=name, password="stumper-demo-student").is_student
    course = Course.objects.get(join_code="DEMO2026")
    assert course.name == "Commonsense NLP (demo)" and course.owner.username == "instructor"
    assert set(course.enrollments.values_list("user__username", flat=True)) == {"alice", "bob"}
    round_ = Round.objects.get(name="demo-round-1")
    assert round_.course == course and round_.is_open()
    assert round_.live_model == model_version_default()
    questions = Question.objects.filter(round=round_)
    assert 6 <= questions.count() <= 8
    assert set(questions.values_list("author__username", flat=True)) == {"alice", "bob"}
    assert set(Prediction.objects.values_list("status", flat=True)) == {Prediction.Status.PENDING}
    assert seed.scheduled == questions.count()
    assert len({q.correct_index for q in questions}) > 1  # the key is not always in one place


@pytest.mark.django_db
def test_seed_is_idempotent():
    seed()
    counts = (Course.objects.count(), Round.objects.count(), Question.objects.count(), Prediction.objects.count())

    output = seed()

    assert "0 users and 0 questions created" in output
    assert (Course.objects.count(), Round.objects.count(), Question.objects.count(), Prediction.objects.count()) == counts
    assert seed.scheduled == 0
    assert Question.objects.count() == len(DEMO_QUESTIONS)
