"""Fixtures shared by the Django apps' tests and the cross-app tests in tests/."""
import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny randomly initialised BERT multiple-choice model saved on disk."""
    from mlcore.testing import build_tiny_bert

    return build_tiny_bert(tmp_path_factory.mktemp("tiny-bert"))


@pytest.fixture(scope="session", autouse=True)
def _remove_test_broker_folder():
    yield
    from django.conf import settings

    folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("data_folder_in")
    if folder and "test-broker-" in folder:
        shutil.rmtree(Path(folder).parent, ignore_errors=True)


@pytest.fixture
def tiny_model_version(db, tiny_model_dir):
    from collector.services import model_version_register

    return model_version_register(name="tiny-test-model", kind="multiple_choice", path=str(tiny_model_dir))


@pytest.fixture
def instructor(db):
    from accounts.models import User

    return User.objects.create_user(username="teacher", password="pw-teacher-123", role=User.Role.INSTRUCTOR)


@pytest.fixture
def student(db):
    from accounts.models import User

    return User.objects.create_user(username="student1", password="pw-student-123", role=User.Role.STUDENT)


@pytest.fixture
def course(instructor, student):
    from collector.services import course_create, course_join

    course = course_create(owner=instructor, name="Test course")
    course_join(user=student, join_code=course.join_code)
    return course


@pytest.fixture
def open_round(course, tiny_model_version):
    from collector.services import round_create

    return round_create(course=course, name="round-1", title="Round 1", live_model=tiny_model_version)


@pytest.fixture
def fixed_prediction():
    """Patch the model call of the services with a fixed answer (picks completion 3)."""
    from unittest import mock

    from mlcore.configs import MCPrediction

    result = MCPrediction(probs=(0.1, 0.2, 0.3, 0.4), predicted=3, model_name="fixed", model_revision="r1")
    with mock.patch("collector.services.predict_examples", return_value=[result]) as patched:
        yield patched
