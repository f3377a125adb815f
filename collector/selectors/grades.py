"""Grades of a round: one row per enrolled student (``round_grades``).

Points:

- without ``points_possible``, points = credit (weight_live x fooled_live + weight_cv x fooled_cv
  summed over the student's questions in the round);
- with ``points_possible = P``, points = min(P, credit): each unit of credit is a point and P
  points are full marks, so a student who earns P credits (e.g. P questions that fooled both
  models with weights 0.5/0.5) gets everything and extra questions cannot push past 100%.

The files LMSs import are written by ``presentation/grades.py``, with what the LMS knows of the
round's students and column (``round_gradebook``, from the apps registered in ``core.registry``).
"""
from collections import defaultdict
from dataclasses import dataclass

from accounts.models import User
from collector.models import Round
from collector.selectors.questions import live_prediction_of, question_credit, round_questions
from core.registry import Gradebook, gradebook_of
from courses.selectors import course_enrollments


@dataclass(frozen=True)
class GradeRow:
    user: User
    questions: int
    fooled_live: int
    fooled_cv: float  # summed share of CV trials fooled (0 until the round is scored in CV)
    credit: float
    points: float


def round_grades(*, round_: Round, points_possible: float | None = None) -> list[GradeRow]:
    """One row per student enrolled in the round's course (students without questions get 0),
    ordered by username. Questions by people who are not enrolled (instructors trying the
    round) are not graded."""
    if points_possible is not None and points_possible < 0:
        raise ValueError("points_possible must be >= 0")
    totals: dict[int, dict] = defaultdict(lambda: {"questions": 0, "fooled_live": 0, "fooled_cv": 0.0, "credit": 0.0})
    for question in round_questions(round_=round_):
        prediction = live_prediction_of(question)
        total = totals[question.author_id]
        total["questions"] += 1
        total["fooled_live"] += int(bool(prediction is not None and prediction.fooled))
        total["fooled_cv"] += question.fooled_cv or 0.0
        total["credit"] += question_credit(question=question, prediction=prediction)
    rows = []
    for enrollment in course_enrollments(course=round_.course):
        total = totals[enrollment.user_id]
        credit = round(total["credit"], 4)
        points = credit if points_possible is None else min(points_possible, credit)
        rows.append(GradeRow(enrollment.user, total["questions"], total["fooled_live"], round(total["fooled_cv"], 4),
                             credit, round(points, 2)))
    return rows


def round_gradebook(*, round_: Round, users: list[User]) -> Gradebook:
    """The LMS ids of ``users`` and the LMS's name for the round's column (empty for a round no LMS links)."""
    return gradebook_of(round_id=round_.pk, user_ids=[user.pk for user in users])


def round_students(*, round_: Round) -> list[User]:
    """The students a grade file of the round has a row for, without computing their grades."""
    return [enrollment.user for enrollment in course_enrollments(course=round_.course)]
