"""The round page warns when its validation settings keep questions from being accepted, and says
how to fix it (``collector/_validator_capacity.html``)."""
import html
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.tests.factories import make_user
from collector.models import Round
from courses.models import StaffRole
from courses.services import course_staff_add

pytestmark = pytest.mark.django_db


def round_page(client, round_) -> str:
    return html.unescape(client.get(reverse("collector:round_detail", args=[round_.pk])).content.decode())


def test_one_instructor_with_the_defaults_is_told_no_question_can_be_accepted_and_how_to_fix_it(
        client, instructor, round_, student):
    client.force_login(instructor)
    page = round_page(client, round_)
    assert "No question of this round can be accepted" in page
    assert "needs 2 validators who agree" in page and "at most 1 person can validate" in page
    assert "it has no closing time" in page
    assert reverse("courses:course_staff", args=[round_.course_id]) in page
    assert reverse("collector:round_settings", args=[round_.pk]) + "#quality-settings" in page
    assert "to 1 or fewer" in page


def test_an_open_round_whose_students_validate_after_the_close_says_questions_wait(client, instructor, round_,
                                                                                   student, classmates):
    Round.objects.filter(pk=round_.pk).update(closes_at=timezone.now() + timedelta(days=3))
    client.force_login(instructor)
    page = round_page(client, round_)
    assert "Questions wait until the round closes" in page and "No question of this round" not in page


def test_enough_teaching_staff_removes_the_warning(client, instructor, course, round_):
    make_user("tara")
    course_staff_add(course=course, who="tara", role=StaffRole.TA)
    client.force_login(instructor)
    assert 'data-testid="validator-capacity"' not in round_page(client, round_)
