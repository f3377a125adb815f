"""``services/rounds.py``: creating a round and changing its live model (only to one its instructors may use)."""
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from collector.models import Round
from collector.services.rounds import round_create, round_set_live_model
from modelhub.models import ModelVersion
from modelhub.services import DEFAULT_MODEL_NAME, model_version_register, model_version_share


@pytest.mark.django_db
def test_round_defaults_to_model_version_zero(course):
    round_ = round_create(course=course, name="r0")
    assert round_.live_model.name == DEFAULT_MODEL_NAME
    assert round_.live_model.kind == ModelVersion.Kind.ZERO_SHOT
    assert round_.is_open()


@pytest.mark.django_db
def test_round_name_must_be_command_friendly_and_dates_ordered(course):
    with pytest.raises(ValidationError):
        round_create(course=course, name="has spaces")
    now = timezone.now()
    with pytest.raises(ValidationError):
        round_create(course=course, name="r1", opens_at=now, closes_at=now - timedelta(hours=1))


@pytest.mark.django_db
def test_live_model_must_be_multiple_choice(open_round):
    qa = model_version_register(name="qa", kind="question_answering", path="/qa")
    with pytest.raises(ValidationError):
        round_set_live_model(round_=open_round, model_version=qa)


@pytest.mark.django_db
def test_another_courses_model_goes_live_nowhere_until_its_course_shares_it(open_round, instructor, other_course,
                                                                              other_instructor):
    theirs = model_version_register(name="vision-after-r1", kind="multiple_choice", path="/m/b",
                                    course_id=other_course.pk)
    before = open_round.live_model_id
    for user in (instructor, None):  # the instructor, or the system acting for the round's course
        with pytest.raises(ValidationError, match="There is no such model version."):
            round_set_live_model(round_=open_round, model_version=theirs, user=user)
        with pytest.raises(ValidationError, match="There is no such model version."):
            round_create(course=open_round.course, name="r9", live_model=theirs, user=user)
    assert Round.objects.get(pk=open_round.pk).live_model_id == before and not Round.objects.filter(name="r9")
    model_version_share(model_id=theirs.pk, user=other_instructor, shared=True)
    assert round_set_live_model(round_=open_round, model_version=theirs, user=instructor).live_model == theirs


@pytest.mark.django_db
def test_a_courses_own_model_goes_live_in_its_rounds(open_round, instructor):
    mine = model_version_register(name="nlp-after-r1", kind="multiple_choice", path="/m/a",
                                  course_id=open_round.course_id)
    assert round_set_live_model(round_=open_round, model_version=mine).live_model == mine
    assert round_create(course=open_round.course, name="r2", live_model=mine, user=instructor).live_model == mine
