"""A round ready for release: several authors, validated questions, live and CV predictions."""
import pytest

from collector import services as collector_services
from collector import validation_services
from collector.models import Question, Round
from collector.tests.factories import make_user, question_data, validate
from courses.services import course_join
from evaluation.tests.factories import artifact_questions, scoring_run_with_predictions


def _author(course, name):
    user = make_user(name)
    course_join(user=user, join_code=course.join_code)
    return user


@pytest.fixture
def release_round(round_, course, student, instructor, fake_model):
    """``round_`` with 20 questions by 5 authors: alice's 12 artifact questions and 2 each by bob,
    cy, dee and eve; a 2-trial CV run (2 folds) and an answer-only run over all of them.

    Validation (one validator needed): 16 accepted (by the instructor's agreeing pick, or by the
    owner's review when the coach sent a near-duplicate there), two in review (a wrong pick; one
    never validated, a near-duplicate), one rejected, one appealed.
    """
    Round.objects.filter(pk=round_.pk).update(validations_required=1)
    round_.refresh_from_db()
    made = artifact_questions(student, round_)
    for name in ("bob", "cy", "dee", "eve"):
        author = _author(course, name)
        for i in range(2):
            q = collector_services.question_submit(
                user=author, round_id=round_.pk,
                **question_data(prompt=f"{name} wrote question {i}. She", categories=["negation"], correct_index=1))
            made.append((q, 1 if i == 0 else 2))
    scoring_run_with_predictions(round_, {q.pk: [pick, pick] for q, pick in made})
    scoring_run_with_predictions(round_, {q.pk: [0] for q, _ in made}, kind="answer_only")
    questions = [q for q, _ in made]
    for q in questions[:17]:
        validate(q, instructor, q.correct_index if q is not questions[16] else (q.correct_index + 1) % 4)
    for q in Question.objects.filter(pk__in=[q.pk for q in questions[:16]], status=Question.Status.REVIEW):
        validation_services.question_review_decide(reviewer=instructor, question_id=q.pk, action="accept")
    Question.objects.filter(pk=questions[18].pk).update(status=Question.Status.REJECTED)
    Question.objects.filter(pk=questions[19].pk).update(status=Question.Status.APPEALED)
    return round_
