"""``appeal_submit`` / ``appeal_decide``: one appeal per rejection, decided by the course's instructors."""
import pytest
from django.core.exceptions import ValidationError

from collector.models import Appeal, Question, ReviewDecision
from collector.selectors.questions import live_prediction_of, question_credit, questions_of_author
from collector.services.reviews import appeal_decide, appeal_submit, question_review_decide
from core.exceptions import AccessError

pytestmark = pytest.mark.django_db


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
