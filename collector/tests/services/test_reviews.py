"""``services/reviews.py``: the owner's decisions (accept, reject, edit; credit and grades follow) and appeals (one per rejection, decided by the course's instructors)."""
import pytest
from django.core.exceptions import ValidationError

from collector.models import Appeal, CVPrediction, Prediction, Question, ReviewDecision, Round
from collector.selectors.grades import round_grades
from collector.selectors.questions import author_credit_total, live_prediction_of, question_credit, questions_of_author
from collector.services.imports import codah_import
from collector.services.reviews import appeal_decide, appeal_submit, question_review_decide
from collector.tests.factories import finished_scoring_run, question_data, validate
from core.exceptions import AccessError

pytestmark = pytest.mark.django_db


def decide(question, reviewer, action, **kwargs) -> Question:
    return question_review_decide(reviewer=reviewer, question_id=question.pk, action=action, **kwargs)


def credit_of(question) -> float:
    question = questions_of_author(user=question.author).get(pk=question.pk)
    return question_credit(question=question, prediction=live_prediction_of(question))


class QuestionReviewDecideTests:
    def test_reject_needs_a_reason_the_author_sees_and_takes_the_credit(self, submitted, instructor):
        assert credit_of(submitted) == 1.0  # the fake model picks D, the key is A: fooled
        with pytest.raises(ValidationError) as error:
            decide(submitted, instructor, "reject", reason="  ")
        assert "The reason is required." in error.value.message_dict["reason"]
        assert Question.objects.get(pk=submitted.pk).status == "pending"
        decide(submitted, instructor, "reject", reason="Two completions are right.")
        question = Question.objects.get(pk=submitted.pk)
        assert (question.status, question.rejection_reason) == ("rejected", "Two completions are right.")
        assert question.decided_at is not None
        assert credit_of(submitted) == 0.0
        decision = ReviewDecision.objects.get(question=submitted)
        assert (decision.action, decision.reviewer, decision.reason) == ("rejected", instructor, "Two completions are right.")

    def test_accept_after_review_restores_credit_and_clears_the_reason(self, submitted, instructor, classmates):
        validate(submitted, classmates[0], 1)  # disagreement -> review
        decide(submitted, instructor, "reject", reason="Ambiguous.")
        decide(submitted, instructor, "accept", reason="On second thought it is fine.")
        question = Question.objects.get(pk=submitted.pk)
        assert (question.status, question.rejection_reason) == ("accepted", "")
        assert credit_of(submitted) == 1.0
        assert list(ReviewDecision.objects.filter(question=submitted).values_list("action", flat=True)) == [
            "accepted", "rejected", "sent_to_review"]

    def test_accepting_twice_records_one_decision(self, submitted, instructor):
        decide(submitted, instructor, "accept")
        decide(submitted, instructor, "accept")
        assert ReviewDecision.objects.filter(question=submitted).count() == 1

    def test_editing_the_key_re_judges_the_model_answers(self, submitted, instructor, peer_round):
        finished_scoring_run(peer_round, {submitted.pk: [False]})
        decide(submitted, instructor, "edit", correct_index=3, reason="The key was D.")
        question = Question.objects.get(pk=submitted.pk)
        assert (question.status, question.correct_index) == ("accepted", 3)
        live = Prediction.objects.get(question=submitted)
        assert live.status == "done" and live.fooled is False  # the model's D is now right
        assert CVPrediction.objects.get(question=submitted).correct is False  # predicted 0, key 3
        assert credit_of(submitted) == 1.0  # fooled in CV (predicted A), not live
        decision = ReviewDecision.objects.get(question=submitted)
        assert decision.action == "edited" and decision.changes == {"correct_index": [0, 3]}

    def test_editing_the_text_scores_it_again(self, submitted, instructor, fake_model,
                                              django_capture_on_commit_callbacks):
        calls = fake_model.call_count
        with django_capture_on_commit_callbacks(execute=True):
            decide(submitted, instructor, "edit", prompt="The man ate the whole pizza alone. He")
        question = Question.objects.get(pk=submitted.pk)
        assert question.prompt == "The man ate the whole pizza alone. He"
        assert fake_model.call_count == calls + 1  # recomputed after commit (eager Celery)
        live = Prediction.objects.get(question=submitted)
        assert live.status == "done" and live.fooled is True

    def test_an_edit_is_validated_like_a_submission(self, submitted, instructor):
        with pytest.raises(ValidationError) as error:
            decide(submitted, instructor, "edit", choices=["a.", "a.", "b.", "c."])
        assert "repeats" in str(error.value)
        with pytest.raises(ValidationError, match="Nothing was changed"):
            decide(submitted, instructor, "edit", prompt=submitted.prompt)
        assert Question.objects.get(pk=submitted.pk).status == "pending"

    def test_only_the_courses_instructors_decide(self, submitted, student, other_instructor, classmates):
        for user in (student, other_instructor, classmates[0]):
            with pytest.raises(AccessError, match="instructors"):
                decide(submitted, user, "accept")

    def test_unknown_actions_and_questions(self, submitted, instructor):
        with pytest.raises(ValidationError, match="Choose one of"):
            decide(submitted, instructor, "archive")
        with pytest.raises(AccessError, match="does not exist"):
            question_review_decide(reviewer=instructor, question_id=999999, action="accept")


class CreditRequiresAcceptanceTests:
    def test_pending_questions_count_provisionally_unless_the_round_says_otherwise(self, submitted, instructor,
                                                                                   peer_round):
        assert credit_of(submitted) == 1.0
        Round.objects.filter(pk=peer_round.pk).update(credit_requires_acceptance=True)
        assert credit_of(submitted) == 0.0
        decide(submitted, instructor, "accept")
        assert credit_of(submitted) == 1.0


class GradesFollowDecisionsTests:
    def test_the_grade_export_drops_a_rejected_question(self, graded_round, instructor, student):
        before = {row.user.username: row.credit for row in round_grades(round_=graded_round)}
        first = Question.objects.filter(author=student).order_by("id").first()
        decide(first, instructor, "reject", reason="Not common sense.")
        after = {row.user.username: row.credit for row in round_grades(round_=graded_round)}
        assert before["alice"] == pytest.approx(4.0)  # q1: live 1 + 2 x 1.0 CV; q2: 2 x 0.5 CV
        assert after["alice"] == pytest.approx(1.0)
        assert after["bob"] == before["bob"]
        assert author_credit_total(user=student) == pytest.approx(1.0)


def test_imported_questions_are_accepted(plain_round_with_import):
    assert set(Question.objects.filter(source="imported").values_list("status", flat=True)) == {"accepted"}


@pytest.fixture
def plain_round_with_import(round_, instructor):
    text = "o\tIt began to rain, so Omar\tput on sunglasses.\twatered the lawn.\topened his umbrella.\tlit a fire.\t2\n"
    codah_import(round_=round_, text=text, author=instructor)
    return round_


def test_submitting_creates_a_pending_question(submitted):
    assert submitted.status == "pending" and question_data()["prompt"] == submitted.prompt


@pytest.fixture
def rejected(submitted, instructor):
    question_review_decide(reviewer=instructor, question_id=submitted.pk, action="reject",
                                               reason="The answer is not common sense.")
    return submitted


def appeal(question, user, message="It is: everyone knows pizza fills you up."):
    return appeal_submit(author=user, question_id=question.pk, message=message)


def credit(question) -> float:
    question = questions_of_author(user=question.author).get(pk=question.pk)
    return question_credit(question=question, prediction=live_prediction_of(question))


class AppealSubmitTests:
    def test_the_author_appeals_a_rejection_once(self, rejected, student):
        sent = appeal(rejected, student)
        assert sent.status == "open" and Question.objects.get(pk=rejected.pk).status == "appealed"
        assert credit(rejected) == 0.0  # no credit while the appeal is open
        with pytest.raises(ValidationError, match="already appealed"):
            appeal(rejected, student)

    def test_only_rejected_questions_and_only_by_their_author(self, submitted, rejected, student, classmates):
        with pytest.raises(AccessError, match="your own"):
            appeal(rejected, classmates[0])
        other = Question.objects.exclude(pk=rejected.pk).first()
        assert other is None  # only one question exists; a pending one cannot be appealed:
        question_review_decide(reviewer=rejected.round.course.owner, question_id=rejected.pk,
                                                   action="accept")
        with pytest.raises(ValidationError, match="Only rejected"):
            appeal(rejected, student)

    def test_the_message_is_required_and_bounded(self, rejected, student):
        with pytest.raises(ValidationError, match="required"):
            appeal(rejected, student, message="   ")
        with pytest.raises(ValidationError, match="too long"):
            appeal(rejected, student, message="x" * 2001)
        assert not Appeal.objects.exists() and Question.objects.get(pk=rejected.pk).status == "rejected"


class AppealDecideTests:
    def test_upholding_accepts_the_question_and_restores_credit(self, rejected, student, instructor):
        sent = appeal(rejected, student)
        decided = appeal_decide(reviewer=instructor, appeal_id=sent.pk, uphold=True)
        assert decided.status == "upheld" and decided.decided_by == instructor
        question = Question.objects.get(pk=rejected.pk)
        assert (question.status, question.rejection_reason) == ("accepted", "")
        assert credit(rejected) == 1.0
        assert ReviewDecision.objects.filter(question=rejected, action="appeal_upheld").exists()

    def test_denying_needs_a_response_and_keeps_it_rejected_for_good(self, rejected, student, instructor):
        sent = appeal(rejected, student)
        with pytest.raises(ValidationError, match="required"):
            appeal_decide(reviewer=instructor, appeal_id=sent.pk, uphold=False)
        decided = appeal_decide(reviewer=instructor, appeal_id=sent.pk, uphold=False,
                                                    response="Hunger is not implied.")
        assert decided.status == "denied" and decided.response == "Hunger is not implied."
        assert Question.objects.get(pk=rejected.pk).status == "rejected"
        assert credit(rejected) == 0.0
        with pytest.raises(ValidationError, match="already been decided"):
            appeal_decide(reviewer=instructor, appeal_id=sent.pk, uphold=True)
        with pytest.raises(ValidationError, match="already appealed"):
            appeal(rejected, student)

    def test_reviewing_an_appealed_question_directly_is_refused(self, rejected, student, instructor):
        appeal(rejected, student)
        with pytest.raises(ValidationError, match="decide the appeal"):
            question_review_decide(reviewer=instructor, question_id=rejected.pk, action="accept")

    def test_only_the_courses_instructors_decide(self, rejected, student, other_instructor):
        sent = appeal(rejected, student)
        with pytest.raises(AccessError):
            appeal_decide(reviewer=other_instructor, appeal_id=sent.pk, uphold=True)
        with pytest.raises(AccessError, match="does not exist"):
            appeal_decide(reviewer=other_instructor, appeal_id=999, uphold=True)
