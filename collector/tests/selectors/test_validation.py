"""``selectors/validation.py``: who gets which question, and what a validator sees of it (and the review queue of
``selectors/reviews.py``)."""
from datetime import timedelta

import pytest
from django.utils import timezone

from collector.models import Round
from collector.selectors.reviews import review_queue
from collector.selectors.validation import (
    blind_question,
    display_order,
    question_from_token,
    rounds_to_validate,
    validation_next,
    validation_queue,
)
from collector.services.questions import question_submit
from collector.tests.factories import question_data, validate

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_questions(peer_round, student, classmates, fake_model):
    bob = classmates[0]
    first = question_submit(user=student, round_id=peer_round.pk, **question_data(prompt="First one. He"))
    second = question_submit(user=student, round_id=peer_round.pk, **question_data(
        prompt="Rain fell all day long, so Omar", choices=["took an umbrella.", "wore sunglasses.", "lit a fire.",
                                                          "watered plants."]))
    own = question_submit(user=bob, round_id=peer_round.pk, **question_data(
        prompt="The library closed early today. The student", choices=["went home.", "read inside.",
                                                                      "borrowed the building.", "became a book."]))
    return first, second, own


class ValidationQueueTests:
    def test_never_the_validators_own_nor_already_validated_questions(self, three_questions, classmates):
        first, second, own = three_questions
        bob, carol, _ = classmates
        assert list(validation_queue(user=bob)) == [first, second]
        validate(first, bob, 0)
        assert list(validation_queue(user=bob)) == [second]

    def test_fewest_validations_first_then_oldest(self, three_questions, classmates):
        first, second, own = three_questions
        bob, carol, dave = classmates
        validate(first, dave, 0)
        assert list(validation_queue(user=carol)) == [second, own, first]
        assert validation_next(user=carol, skip=(second.pk,)) == own

    def test_decided_questions_leave_the_queue(self, three_questions, classmates, instructor):
        first, _, _ = three_questions
        validate(first, classmates[1], 3)  # disagreement: in review now
        assert first not in validation_queue(user=instructor)

    def test_students_see_nothing_until_the_round_allows_it(self, three_questions, classmates, peer_round, instructor):
        Round.objects.filter(pk=peer_round.pk).update(peer_validation="after_close")
        assert rounds_to_validate(user=classmates[0]) == []
        assert not validation_queue(user=classmates[0]).exists()
        assert validation_queue(user=instructor).count() == 3
        Round.objects.filter(pk=peer_round.pk).update(closes_at=timezone.now() - timedelta(seconds=1))
        assert validation_queue(user=classmates[0]).count() == 2

    def test_outsiders_see_nothing(self, three_questions, outsider, other_instructor):
        for user in (outsider, other_instructor):
            assert not validation_queue(user=user).exists()


class BlindQuestionTests:
    def test_shuffled_per_validator_and_stable(self, submitted, classmates):
        bob, carol, _ = classmates
        blind = blind_question(question=submitted, validator=bob)
        order = display_order(question_id=submitted.pk, validator_id=bob.pk)
        assert sorted(order) == [0, 1, 2, 3]
        assert [c.text for c in blind.choices] == [submitted.choices[i] for i in order]
        assert display_order(question_id=submitted.pk, validator_id=bob.pk) == order
        orders = {display_order(question_id=q, validator_id=bob.pk) for q in range(1, 40)}
        assert len(orders) > 10  # really shuffled, not one fixed permutation

    def test_nothing_gives_the_answer_or_the_author_away(self, submitted, classmates):
        blind = blind_question(question=submitted, validator=classmates[0])
        fields = set(vars(blind))
        assert fields == {"question_id", "round", "prompt", "choices", "categories", "token"}
        assert submitted.author.username not in repr(blind.choices) + blind.prompt

    def test_the_token_names_the_question_for_its_validator_only(self, submitted, classmates):
        bob, carol, _ = classmates
        token = blind_question(question=submitted, validator=bob).token
        assert question_from_token(token=token, validator=bob) == submitted
        assert question_from_token(token=token, validator=carol) is None
        assert question_from_token(token="garbage", validator=bob) is None


class ReviewQueueTests:
    def test_in_review_and_appealed_questions_of_managed_courses(self, three_questions, classmates, instructor,
                                                                 other_instructor):
        first, second, _ = three_questions
        validate(first, classmates[1], 2)
        assert list(review_queue(user=instructor)) == [first]
        assert not review_queue(user=other_instructor).exists()
        assert list(review_queue(user=instructor, status="pending")) == [second, three_questions[2]]
