"""Fixtures of the quality-loop tests (validation, review, appeals, duplicates, the coach)."""
import pytest

from collector.selectors.coach import clear_word_tables
from collector.selectors.duplicates import clear_index_cache
from collector.services.questions import question_submit
from collector.tests.item_quality_fixtures import scored_round  # noqa: F401 (a fixture, used by name)
from courses.services import course_join


@pytest.fixture(autouse=True)
def _fresh_quality_caches():
    """Caches keyed by ids that a rolled-back test database hands out again."""
    from django.core.cache import cache

    clear_index_cache()
    clear_word_tables()
    cache.clear()  # draft rate-limit counts are keyed by user id
    yield
    clear_index_cache()
    clear_word_tables()


@pytest.fixture
def classmates(course):
    """Three more students of ``course``: bob, carol and dave."""
    from collector.tests.factories import make_user

    users = [make_user(name) for name in ("bob", "carol", "dave")]
    for user in users:
        course_join(user=user, join_code=course.join_code)
    return users


@pytest.fixture
def peer_round(round_):
    """``round_`` with students validating while it is open and two agreeing validators needed."""
    from collector.models import Round

    Round.objects.filter(pk=round_.pk).update(peer_validation="always", validations_required=2)
    round_.refresh_from_db()
    return round_


@pytest.fixture
def submitted(peer_round, student, fake_model):
    """alice's question in ``peer_round``; the (fake) live model picks D, the key is A."""
    from collector.tests.factories import question_data

    return question_submit(user=student, round_id=peer_round.pk, **question_data(categories=["negation"]))
