"""``services/validation.py``: blind answers move a question on, or nothing is stored; right after a submission, near-duplicates go to review."""
import time
from datetime import timedelta
from unittest import mock

import pytest
from django.core import signing
from django.core.exceptions import ValidationError
from django.utils import timezone

from collector.models import DuplicateFlag, Prediction, Question, ReviewDecision, Round, Validation
from collector.selectors.validation import display_order, validation_token
from collector.services.imports import codah_import
from collector.services.questions import question_submit
from collector.services.rounds import round_create
from collector.services.validation import validation_submit
from collector.tests.factories import question_data, validate
from core.exceptions import AccessError

pytestmark = pytest.mark.django_db


def status_of(question) -> str:
    return Question.objects.get(pk=question.pk).status


class ValidationSubmitTests:
    def test_agreeing_validators_accept_the_question(self, submitted, classmates):
        bob, carol, _ = classmates
        first = validate(submitted, bob, 0)
        assert first.is_correct and first.chosen_index == 0
        assert status_of(submitted) == "pending"  # one of two agreeing validators so far
        validate(submitted, carol, 0)
        assert status_of(submitted) == "accepted"
        decision = ReviewDecision.objects.get(question=submitted)
        assert decision.action == "auto_accepted" and decision.reviewer is None

    def test_the_pick_is_stored_in_the_authors_order(self, submitted, classmates):
        bob = classmates[0]
        order = display_order(question_id=submitted.pk, validator_id=bob.pk)
        token = validation_token(question=submitted, validator=bob)
        validation = validation_submit(validator=bob, token=token, position=order.index(2))
        assert validation.chosen_index == 2 and not validation.is_correct
        assert validation.choice_order == list(order)

    def test_a_disagreement_sends_it_to_review_with_the_reason(self, submitted, classmates):
        validate(submitted, classmates[0], 2)
        question = Question.objects.get(pk=submitted.pk)
        assert question.status == "review"
        assert "bob picked C, the key is A" in question.review_reason

    @pytest.mark.parametrize("flag", ["wrong_key", "grammar", "offensive", "duplicate", "no_single_answer"])
    def test_any_flag_sends_it_to_review_even_when_the_pick_agrees(self, submitted, classmates, flag):
        validate(submitted, classmates[0], 0, flags=[flag], comment="Look at this.")
        question = Question.objects.get(pk=submitted.pk)
        assert question.status == "review"
        assert Validation.Flag(flag).label.lower() in question.review_reason
        assert "“Look at this.”" in question.review_reason

    def test_no_pick_only_with_the_no_single_answer_flag(self, submitted, classmates):
        with pytest.raises(ValidationError) as error:
            validate(submitted, classmates[0], None)
        assert "Pick the completion" in str(error.value)
        validation = validate(submitted, classmates[0], None, flags=["no_single_answer"])
        assert validation.chosen_index is None and not validation.is_correct

    def test_later_validations_of_a_question_in_review_add_to_the_reason(self, submitted, classmates):
        validate(submitted, classmates[0], 1)
        validate(submitted, classmates[1], 0, flags=["grammar"])
        reason = Question.objects.get(pk=submitted.pk).review_reason
        assert "bob picked B" in reason and "carol flagged: grammar or spelling errors" in reason
        assert status_of(submitted) == "review"

    def test_categories_are_the_validators_or_the_authors(self, submitted, classmates):
        assert validate(submitted, classmates[0], 0).categories == ["negation"]
        adjusted = validate(submitted, classmates[1], 0, categories=["idioms", "negation"])
        assert adjusted.categories == ["idioms", "negation"]

    @pytest.mark.parametrize(
        "kwargs, field, message",
        [
            ({"flags": ["boring"]}, "flags", "Unknown flags"),
            ({"flags": "grammar"}, "flags", "must be a list"),
            ({"categories": ["quantitative"]}, "categories", "Not offered"),
            ({"categories": ["made-up"]}, "categories", "Unknown categories"),
            ({"comment": "x" * 1001}, "comment", "too long"),
        ],
    )
    def test_invalid_input_is_refused_and_nothing_is_stored(self, submitted, classmates, kwargs, field, message):
        with pytest.raises(ValidationError) as error:
            validate(submitted, classmates[0], 0, **kwargs)
        assert message in " ".join(error.value.message_dict[field])
        assert not Validation.objects.exists() and status_of(submitted) == "pending"

    @pytest.mark.parametrize("position, message", [(4, "between 0 and 3"), (-1, "between 0 and 3"), ("B", "number")])
    def test_the_position_must_be_one_of_the_four(self, submitted, classmates, position, message):
        token = validation_token(question=submitted, validator=classmates[0])
        with pytest.raises(ValidationError, match=message):
            validation_submit(validator=classmates[0], token=token, position=position)

    def test_the_author_never_validates_their_own_question(self, submitted, student):
        with pytest.raises(AccessError, match="your own question"):
            validate(submitted, student, 0)

    def test_a_validator_answers_a_question_once(self, submitted, classmates):
        validate(submitted, classmates[0], 0)
        with pytest.raises(ValidationError, match="already validated"):
            validate(submitted, classmates[0], 0)
        assert Validation.objects.count() == 1

    def test_a_decided_question_is_not_validated_again(self, submitted, classmates):
        validate(submitted, classmates[0], 0)
        validate(submitted, classmates[1], 0)
        with pytest.raises(ValidationError, match="already been decided"):
            validate(submitted, classmates[2], 0)

    def test_tokens_are_personal_signed_and_expire(self, submitted, classmates, settings):
        bob, carol, _ = classmates
        token = validation_token(question=submitted, validator=bob)
        with pytest.raises(ValidationError, match="someone else"):
            validation_submit(validator=carol, token=token, position=0)
        with pytest.raises(ValidationError, match="not issued by Stumper"):
            validation_submit(validator=bob, token=token[:-2] + "xx", position=0)
        settings.STUMPER_VALIDATION_MAX_AGE_SECONDS = 60
        # Signed two minutes ago (the signature's own timestamp is what expires).
        with mock.patch("django.core.signing.time.time", return_value=time.time() - 120):
            old = signing.dumps({"q": submitted.pk, "v": bob.pk, "t": time.time()}, salt="collector.validation",
                                compress=True)
        with pytest.raises(ValidationError, match="too old"):
            validation_submit(validator=bob, token=old, position=0)

    def test_time_spent_is_measured_from_the_token(self, submitted, classmates):
        bob = classmates[0]
        issued = signing.dumps({"q": submitted.pk, "v": bob.pk, "t": time.time() - 42}, salt="collector.validation")
        validation = validation_submit(validator=bob, token=issued, position=0)
        assert 42 <= validation.seconds_spent <= 45


class WhoMayValidateTests:
    def test_instructors_validate_in_any_round_of_their_course(self, round_, submitted, instructor):
        Round.objects.filter(pk=round_.pk).update(peer_validation="off")
        assert validate(submitted, instructor, 0).is_correct

    def test_students_only_when_the_round_allows_it(self, round_, submitted, classmates):
        Round.objects.filter(pk=round_.pk).update(peer_validation="off")
        with pytest.raises(AccessError, match="only the course's instructors"):
            validate(submitted, classmates[0], 0)
        Round.objects.filter(pk=round_.pk).update(peer_validation="after_close")
        with pytest.raises(AccessError, match="once the round has closed"):
            validate(submitted, classmates[0], 0)
        Round.objects.filter(pk=round_.pk).update(closes_at=timezone.now() - timedelta(minutes=1))
        assert validate(submitted, classmates[0], 0).is_correct

    def test_people_outside_the_course_never(self, submitted, outsider, other_instructor):
        for user in (outsider, other_instructor):
            with pytest.raises(AccessError, match="not in"):
                validate(submitted, user, 0)


COPY = {  # question_data() with other case, a word inserted, punctuation and swapped completions
    "prompt": "THE MAN ATE THE WHOLE PIZZA all BY HIMSELF!!! HE",
    "choices": ["was not hungry at all!", "Was very hungry!", "ate a salad instead!", "gave the pizza to his dog!"],
    "correct_index": 1,
}


class NearDuplicateSubmissionTests:
    def test_a_copy_of_a_classmates_question_goes_to_review(self, submitted, classmates, peer_round):
        copy = question_submit(user=classmates[0], round_id=peer_round.pk, **question_data(**COPY))
        question = Question.objects.get(pk=copy.pk)
        assert question.status == "review"
        assert f"with question #{submitted.pk}" in question.review_reason
        flag = DuplicateFlag.objects.get(question=copy)
        assert flag.similar_to_id == submitted.pk and flag.similarity >= 0.8
        assert Question.objects.get(pk=submitted.pk).status == "pending"  # the original is untouched

    def test_copies_across_rounds_of_the_course_and_of_imported_data_sets(self, course, student, instructor,
                                                                          fake_model, peer_round):
        imported_round = round_create(course=course, name="codah-import")
        text = "o\tThe cat chased the mouse around the house. The cat\twas hungry.\twas asleep.\twas a dog.\tflew.\t0\n"
        codah_import(round_=imported_round, text=text, author=instructor)
        copy = question_submit(user=student, round_id=peer_round.pk, **question_data(
            prompt="The cat chased the mouse around the whole house. The cat",
            choices=["was asleep.", "was hungry.", "flew.", "was a dog."], correct_index=1,
        ))
        assert Question.objects.get(pk=copy.pk).status == "review"
        assert DuplicateFlag.objects.get(question=copy).similar_to.source == "imported"

    def test_a_different_question_stays_pending(self, submitted, classmates, peer_round):
        other = question_submit(user=classmates[0], round_id=peer_round.pk, **question_data(
            prompt="It began to rain on the way to school, so Omar", choices=["opened his umbrella.",
                                                                            "put on sunglasses.", "lit a fire.",
                                                                            "watered the lawn."]))
        assert Question.objects.get(pk=other.pk).status == "pending"
        assert not DuplicateFlag.objects.exists()

    def test_a_failing_check_never_loses_the_submission(self, peer_round, student, fake_model):
        with mock.patch("collector.services.validation.question_duplicates_flag", side_effect=RuntimeError("index down")):
            question = question_submit(user=student, round_id=peer_round.pk, **question_data())
        assert Question.objects.get(pk=question.pk).status == "pending"

    def test_a_model_crash_never_loses_the_submission_either(self, peer_round, student, broken_model):
        question = question_submit(user=student, round_id=peer_round.pk, **question_data())
        assert Question.objects.filter(pk=question.pk).exists()
        assert Prediction.objects.get(question=question).status == "pending"
