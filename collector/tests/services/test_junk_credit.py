"""A question with junk completions (``selectors/junk.py``) is saved but earns no live credit until
it is accepted; the submission sends it to the owner's review, and accepting it gives the credit."""
import pytest

from collector.models import Question, QuestionStatus
from collector.presentation.questions import question_view, submit_message
from collector.selectors.grades import round_grades
from collector.selectors.questions import author_credit_total, questions_of_author
from collector.services.questions import question_submit
from collector.services.reviews import question_review_decide
from collector.tests.factories import question_data

pytestmark = pytest.mark.django_db

# The fake live model picks D (index 3), the key is A: every question below fools it.
JUNK = ["was very hungry.", "was not hungry at all.", "gave the pizza to his dog.", "a" * 200]


def _view(question: Question):
    return question_view(questions_of_author(user=question.author).get(pk=question.pk))


def test_junk_is_saved_to_review_without_live_credit_until_accepted(peer_round, student, instructor, fake_model):
    question = question_submit(user=student, round_id=peer_round.pk, **question_data(choices=JUNK))
    question.refresh_from_db()
    assert question.status == QuestionStatus.REVIEW
    assert "Looks like junk: completion D is one character repeated" in question.review_reason
    view = _view(question)
    assert view.state == "fooled" and view.live_credit == 0.0 and view.credit == 0.0
    assert "No live credit yet: completion D is one character repeated" in view.live_credit_note
    assert "No live credit yet" in submit_message(question)
    assert author_credit_total(user=student) == 0.0
    assert [row.credit for row in round_grades(round_=peer_round) if row.user == student] == [0.0]

    question_review_decide(reviewer=instructor, question_id=question.pk, action="accept")
    view = _view(question)
    assert view.live_credit == peer_round.weight_live == view.credit and view.live_credit_note == ""
    assert author_credit_total(user=student) == peer_round.weight_live
    assert [row.credit for row in round_grades(round_=peer_round) if row.user == student] == [peer_round.weight_live]


def test_an_honest_question_keeps_its_provisional_live_credit(peer_round, student, fake_model):
    question = question_submit(user=student, round_id=peer_round.pk, **question_data())
    assert question.status == QuestionStatus.PENDING
    view = _view(question)
    assert view.live_credit == peer_round.weight_live and view.live_credit_note == ""


def test_a_rejected_junk_question_says_nothing_about_later_credit(peer_round, student, instructor, fake_model):
    question = question_submit(user=student, round_id=peer_round.pk, **question_data(choices=JUNK))
    question_review_decide(reviewer=instructor, question_id=question.pk, action="reject", reason="Junk.")
    view = _view(question)
    assert view.credit == 0.0 and view.live_credit_note == ""
