"""Fixtures shared by the Django apps' tests and the cross-app tests in tests/.

Models are never loaded unless a test asks for one: ``fake_model`` patches the services' model
call with a fixed prediction that picks completion D (index 3); ``tiny_model_version`` is a
tiny randomly initialised BERT on disk for tests that run the real inference path.
"""
import os
import shutil
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest

from courses.services import course_join

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session", autouse=True)
def _remove_test_broker_folder():
    yield
    from django.conf import settings

    folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("data_folder_in")
    if folder and "test-broker-" in folder:
        shutil.rmtree(Path(folder).parent, ignore_errors=True)


@pytest.fixture(autouse=True)
def _default_language_after_each_test() -> Iterator[None]:
    """A request's language stays active in the test's thread after it; the next test must not
    inherit a Persian one (tests that ran after a Persian page read Persian messages)."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny randomly initialised BERT multiple-choice model saved on disk."""
    from mlcore.testing import build_tiny_bert

    return build_tiny_bert(tmp_path_factory.mktemp("tiny-bert"))


@pytest.fixture
def tiny_model_version(db, tiny_model_dir):
    from modelhub.services import model_version_register

    return model_version_register(name="tiny-test-model", kind="multiple_choice", path=str(tiny_model_dir))


@pytest.fixture
def fake_model() -> Iterator[mock.MagicMock]:
    from collector.tests.factories import FIXED_PREDICTION

    with mock.patch("collector.services.questions.predict_examples", return_value=[FIXED_PREDICTION]) as patched:
        yield patched


@pytest.fixture
def broken_model() -> Iterator[mock.MagicMock]:
    """A model that fails, so predictions stay pending (and scheduling them does nothing)."""
    with mock.patch("collector.services.questions.predict_examples", side_effect=RuntimeError("model down")) as patched, \
            mock.patch("collector.services.questions.prediction_schedule"):
        yield patched


def _user(username: str, role: str = "student", **extra):
    from accounts.tests.factories import make_user

    return make_user(username, role=role, **extra)


@pytest.fixture
def instructor(db):
    return _user("prof", role="instructor")


@pytest.fixture
def other_instructor(db):
    return _user("otherprof", role="instructor")


@pytest.fixture
def staff(db):
    return _user("admin", role="student", is_staff=True)


@pytest.fixture
def crowdworker(db):
    return _user("worker", role="crowdworker")


@pytest.fixture
def outsider(db):
    """A student of no course."""
    return _user("mallory")


@pytest.fixture
def course(instructor):
    from courses.services import course_create

    return course_create(owner=instructor, name="NLP 101")


@pytest.fixture
def other_course(other_instructor):
    """Another instructor's course."""
    from courses.services import course_create

    return course_create(owner=other_instructor, name="Vision 201")


@pytest.fixture
def student(course):
    """A student enrolled in ``course``."""
    from courses.services import course_join

    user = _user("alice")
    course_join(user=user, join_code=course.join_code)
    return user


@pytest.fixture
def round_(course):
    from collector.services.rounds import round_create

    return round_create(
        course=course, name="r1", title="Round one", instructions="Try idioms and negation.",
        categories=["idioms", "negation", "other"],
    )


@pytest.fixture
def closed_round(course):
    from django.utils import timezone

    from collector.services.rounds import round_create

    now = timezone.now()
    return round_create(
        course=course, name="r0", title="Old round", opens_at=now - timedelta(days=10), closes_at=now - timedelta(days=1)
    )


@pytest.fixture
def open_round(course, tiny_model_version):
    """An open round whose live model is the tiny BERT (real inference, no patching)."""
    from collector.services.rounds import round_create

    return round_create(course=course, name="round-1", title="Round 1", live_model=tiny_model_version)


@pytest.fixture
def graded_round(round_, course, student, instructor, fake_model):
    """alice: 2 questions (1 fooled live); bob: 1 (fooled live); carol: none; the instructor's own
    question is not graded. CV (2 trials): alice's fool 1.0 and 0.5 of trials, bob's 0."""
    from accounts.tests.factories import make_user
    from collector.services.questions import question_submit
    from collector.tests.factories import finished_scoring_run, question_data

    round_.weight_cv = 2.0
    round_.save()
    bob = make_user("bob", email="bob@example.edu", first_name="Bob", last_name="Brown", sis_user_id="S2", section="B")
    carol = make_user("carol", email="carol@example.edu", sis_user_id="S3")
    for user in (bob, carol):
        course_join(user=user, join_code=course.join_code)

    def submit(user, prompt, answer):
        # fake_model always picks completion 3: fooled unless the key is 3.
        return question_submit(user=user, round_id=round_.pk, **question_data(prompt=prompt, correct_index=answer))

    q1, q2 = submit(student, "Alice one. She", 0), submit(student, "Alice two. She", 3)
    q3, q4 = submit(bob, "Bob one. He", 0), submit(instructor, "Prof tries. He", 0)
    finished_scoring_run(round_, {q1.pk: [False, False], q2.pk: [False, True], q3.pk: [True, True], q4.pk: [False, False]})
    return round_
