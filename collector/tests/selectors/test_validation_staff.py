"""``selectors/validation.py`` and the teaching staff: a teaching assistant validates at any time
and counts towards acceptance; ``round_validator_capacity`` says when settings keep questions from
ever (or before the round closes) being accepted."""
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import make_user
from collector.models import Question, QuestionStatus, Round
from collector.selectors.validation import check_may_validate, round_validator_capacity, rounds_to_validate
from collector.services.questions import question_submit
from collector.tests.factories import question_data, validate
from core.exceptions import AccessError
from courses.models import StaffRole
from courses.services import course_staff_add

pytestmark = pytest.mark.django_db


def _capacity(round_: Round, **fields):
    Round.objects.filter(pk=round_.pk).update(**fields)
    return round_validator_capacity(round_=Round.objects.get(pk=round_.pk))


class TeachingAssistantTests:
    def test_validates_an_open_round_and_with_the_instructor_accepts_a_question(self, round_, course, student,
                                                                               instructor, fake_model):
        ta = make_user("tara")
        question = question_submit(user=student, round_id=round_.pk, **question_data())
        with pytest.raises(AccessError):
            check_may_validate(user=ta, question=question)
        course_staff_add(course=course, who="tara", role=StaffRole.TA)
        check_may_validate(user=ta, question=question)
        assert rounds_to_validate(user=ta) == [round_]
        validate(question, instructor, question.correct_index)
        validate(question, ta, question.correct_index)
        assert Question.objects.get(pk=question.pk).status == QuestionStatus.ACCEPTED

    def test_a_ta_of_another_course_validates_nothing_here(self, round_, other_course, student, fake_model):
        ta = make_user("tara")
        course_staff_add(course=other_course, who="tara", role=StaffRole.TA)
        question = question_submit(user=student, round_id=round_.pk, **question_data())
        with pytest.raises(AccessError):
            check_may_validate(user=ta, question=question)
        assert rounds_to_validate(user=ta) == []


class ValidatorCapacityTests:
    def test_one_instructor_and_the_defaults_can_never_accept(self, round_, student, classmates):
        capacity = _capacity(round_)  # two validators, students after a close that never comes
        assert (capacity.required, capacity.staff, capacity.at_most) == (2, 1, 1)
        assert capacity.impossible and not capacity.waits_for_close

    def test_with_a_closing_time_questions_wait_for_the_close(self, round_, student, classmates):
        capacity = _capacity(round_, closes_at=timezone.now() + timedelta(days=1))
        assert (capacity.while_open, capacity.at_most) == (1, 4)  # alice's three classmates after the close
        assert not capacity.impossible and capacity.waits_for_close
        assert not _capacity(round_, closes_at=timezone.now() - timedelta(days=1)).waits_for_close

    def test_a_teaching_assistant_or_fewer_validators_make_it_possible(self, round_, course):
        assert _capacity(round_, peer_validation="off").impossible
        assert not _capacity(round_, validations_required=1).impossible
        make_user("tara")
        course_staff_add(course=course, who="tara", role=StaffRole.TA)
        capacity = _capacity(round_, validations_required=2)
        assert capacity.staff == 2 and not capacity.impossible and not capacity.waits_for_close

    def test_students_validating_while_open_count_without_the_author(self, round_, student, classmates):
        capacity = _capacity(round_, peer_validation="always", validations_required=5)
        assert capacity.while_open == capacity.at_most == 1 + 3 and capacity.impossible
