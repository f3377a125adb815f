"""What happens to a new question right after it is stored: near-duplicates go to review."""
from unittest import mock

import pytest

from collector.models import DuplicateFlag, Prediction, Question
from collector.services.imports import codah_import
from collector.services.questions import question_submit
from collector.services.rounds import round_create
from collector.tests.factories import question_data

pytestmark = pytest.mark.django_db

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
