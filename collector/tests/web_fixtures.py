"""Fixtures shared by the page and API tests (imported by their conftest.py files).

The model is never loaded here: ``collector.services.predict_examples`` is patched to return a
fixed prediction that picks completion D (index 3).
"""
from collections.abc import Iterator
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from accounts.models import User
from accounts.services import user_create
from collector import services
from collector.models import Course, Round
from mlcore.configs import MCPrediction

PASSWORD = "a-long-test-password-42"
FIXED_PREDICTION = MCPrediction(probs=(0.1, 0.2, 0.3, 0.4), predicted=3, model_name="tiny", model_revision="r")
MODEL_PICK = 3


def make_user(username: str, role: str = User.Role.STUDENT, **extra) -> User:
    user = user_create(username=username, password=PASSWORD, role=role)
    if extra:
        User.objects.filter(pk=user.pk).update(**extra)
        user.refresh_from_db()
    return user


def question_data(**overrides) -> dict:
    """A valid submission in the service's keyword form."""
    data = {
        "prompt": "The man ate the whole pizza by himself. He",
        "choices": ["was very hungry.", "was not hungry at all.", "gave the pizza to his dog.", "ate a salad instead."],
        "correct_index": 0,
        "categories": [],
    }
    data.update(overrides)
    return data


@pytest.fixture
def fake_model() -> Iterator[mock.MagicMock]:
    with mock.patch("collector.services.predict_examples", return_value=[FIXED_PREDICTION]) as patched:
        yield patched


@pytest.fixture
def broken_model() -> Iterator[mock.MagicMock]:
    """A model that fails, so predictions stay pending (and scheduling them does nothing)."""
    with mock.patch("collector.services.predict_examples", side_effect=RuntimeError("model down")) as patched, \
            mock.patch("collector.services.prediction_schedule"):
        yield patched


@pytest.fixture
def instructor(db) -> User:
    return make_user("prof", role=User.Role.INSTRUCTOR)


@pytest.fixture
def other_instructor(db) -> User:
    return make_user("otherprof", role=User.Role.INSTRUCTOR)


@pytest.fixture
def staff(db) -> User:
    return make_user("admin", role=User.Role.STUDENT, is_staff=True)


@pytest.fixture
def crowdworker(db) -> User:
    return make_user("worker", role=User.Role.CROWDWORKER)


@pytest.fixture
def course(instructor: User) -> Course:
    return services.course_create(owner=instructor, name="NLP 101")


@pytest.fixture
def round_(course: Course) -> Round:
    return services.round_create(
        course=course, name="r1", title="Round one", instructions="Try idioms and negation.",
        categories=["idioms", "negation", "other"],
    )


@pytest.fixture
def closed_round(course: Course) -> Round:
    now = timezone.now()
    return services.round_create(
        course=course, name="r0", title="Old round", opens_at=now - timedelta(days=10), closes_at=now - timedelta(days=1)
    )


@pytest.fixture
def student(course: Course) -> User:
    user = make_user("alice")
    services.course_join(user=user, join_code=course.join_code)
    return user


@pytest.fixture
def outsider(db) -> User:
    """A student of no course."""
    return make_user("mallory")
