"""``round_grades``: one row per enrolled student with live, CV credit and points."""
import pytest

from collector.selectors.grades import round_grades
from collector.selectors.questions import live_prediction_of, question_credit, round_questions
from collector.selectors.rounds import round_stats
from collector.services.questions import question_submit
from collector.tests.factories import finished_scoring_run, make_user, question_data
from courses.services import course_join


@pytest.mark.django_db
def test_one_row_per_enrolled_student_with_credit(graded_round):
    rows = {row.user.username: row for row in round_grades(round_=graded_round)}
    assert list(rows) == ["alice", "bob", "carol"]  # by username; the instructor is not enrolled
    alice, bob, carol = rows["alice"], rows["bob"], rows["carol"]
    assert (alice.questions, alice.fooled_live, alice.fooled_cv) == (2, 1, 1.5)
    assert alice.credit == pytest.approx(1.0 + 2.0 * 1.5) and alice.points == alice.credit
    assert (bob.questions, bob.fooled_live, bob.fooled_cv, bob.credit) == (1, 1, 0.0, 1.0)
    assert (carol.questions, carol.fooled_live, carol.fooled_cv, carol.credit, carol.points) == (0, 0, 0.0, 0.0, 0.0)


@pytest.mark.django_db
def test_points_possible_caps_the_points(graded_round):
    rows = {row.user.username: row for row in round_grades(round_=graded_round, points_possible=3)}
    assert rows["alice"].credit == 4.0 and rows["alice"].points == 3.0
    assert rows["bob"].points == 1.0 and rows["carol"].points == 0.0
    with pytest.raises(ValueError):
        round_grades(round_=graded_round, points_possible=-1)


@pytest.mark.django_db
def test_before_cross_validation_only_live_credit_counts(round_, student, fake_model):
    question_submit(user=student, round_id=round_.pk, **question_data(correct_index=0))
    [row] = round_grades(round_=round_)
    assert (row.questions, row.fooled_live, row.fooled_cv, row.credit) == (1, 1, 0.0, 1.0)


@pytest.mark.django_db
def test_queries_do_not_grow_with_students(graded_round, course):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as before:
        round_grades(round_=graded_round)
    for i in range(5):
        course_join(user=make_user(f"extra{i}"), join_code=course.join_code)
    with CaptureQueriesContext(connection) as after:
        assert len(round_grades(round_=graded_round)) == 8
    assert len(after) == len(before)


@pytest.mark.django_db
def test_r22_credit_at_default_weights(round_, student, fake_model):
    """SPEC R22 through the collector: (fooled_live, fooled_cv) = (1,1), (1,0), (0,1) -> credits
    2, 1, 1, author total 4, CV fool rate 2/3."""
    assert (round_.weight_live, round_.weight_cv) == (1.0, 1.0)  # the defaults

    def submit(prompt, answer):  # fake_model always picks completion 3: fooled unless the key is 3
        return question_submit(user=student, round_id=round_.pk, **question_data(prompt=prompt, correct_index=answer))

    both, live_only, cv_only = submit("One. She", 0), submit("Two. She", 0), submit("Three. She", 3)
    finished_scoring_run(round_, {both.pk: [False], live_only.pk: [True], cv_only.pk: [False]})  # CV model right? (1 trial)
    questions = {q.pk: q for q in round_questions(round_=round_)}
    fooled = {pk: (int(live_prediction_of(q).fooled), q.fooled_cv) for pk, q in questions.items()}
    assert [fooled[q.pk] for q in (both, live_only, cv_only)] == [(1, 1.0), (1, 0.0), (0, 1.0)]
    credits = [question_credit(question=questions[q.pk], prediction=live_prediction_of(questions[q.pk]))
               for q in (both, live_only, cv_only)]
    assert credits == [2.0, 1.0, 1.0]
    [row] = round_grades(round_=round_)
    assert (row.user, row.questions, row.fooled_live, row.fooled_cv, row.credit, row.points) == (
        student, 3, 2, 2.0, 4.0, 4.0)
    stats = round_stats(round_=round_)
    assert stats["scored_cv"] == 3 and stats["fooled_cv"] / stats["scored_cv"] == pytest.approx(2 / 3)
