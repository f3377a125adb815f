"""Grades of a round: one row per enrolled student (selector) and the CSV files LMSs import.

``round_grades`` reads; ``grades_csv`` is a pure function of its rows. Points:

- without ``points_possible``, points = credit (weight_live x fooled_live + weight_cv x fooled_cv
  summed over the student's questions in the round);
- with ``points_possible = P``, points = min(P, credit): each unit of credit is a point and P
  points are full marks, so a student who earns P credits (e.g. P questions that fooled both
  models with weights 0.5/0.5) gets everything and extra questions cannot push past 100%.

Canvas additionally gets its "Points Possible" row: P, or without P the highest points in the
file (so the best student has 100%).

Names, sections, usernames and emails are typed by people, so every cell goes through
``spreadsheet_safe`` (a name like ``=HYPERLINK(...)`` is written as text, not run as a formula).
"""
import csv
import io
from collections import defaultdict
from dataclasses import dataclass

from accounts.models import User
from collector import selectors
from collector.csv_safety import spreadsheet_safe
from collector.models import Round
from courses.selectors import course_enrollments

FORMATS = ("canvas", "moodle", "csv")
CANVAS_POINTS_POSSIBLE = "    Points Possible"  # as in Canvas's own exports (leading spaces included)


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
    for question in selectors.round_questions(round_=round_):
        prediction = selectors.live_prediction_of(question)
        total = totals[question.author_id]
        total["questions"] += 1
        total["fooled_live"] += int(bool(prediction is not None and prediction.fooled))
        total["fooled_cv"] += question.fooled_cv or 0.0
        total["credit"] += selectors.question_credit(question=question, prediction=prediction)
    rows = []
    for enrollment in course_enrollments(course=round_.course):
        total = totals[enrollment.user_id]
        credit = round(total["credit"], 4)
        points = credit if points_possible is None else min(points_possible, credit)
        rows.append(GradeRow(enrollment.user, total["questions"], total["fooled_live"], round(total["fooled_cv"], 4),
                             credit, round(points, 2)))
    return rows


def assignment_name(round_: Round) -> str:
    """The grade column's name in Canvas (and the Moodle grade item to map it to)."""
    return f"Stumper {round_.name}"


def grades_csv(*, round_: Round, rows: list[GradeRow], fmt: str, points_possible: float | None = None) -> str:
    """The rows as a CSV file for ``fmt``: ``canvas``, ``moodle`` or ``csv`` (see docs/scoring.md)."""
    writers = {"canvas": _canvas, "moodle": _moodle, "csv": _plain}
    if fmt not in writers:
        raise ValueError(f"Unknown grade format {fmt!r}; choose one of {', '.join(FORMATS)}.")
    out = io.StringIO()
    writers[fmt](_SpreadsheetSafeWriter(out), round_, rows, points_possible)
    return out.getvalue()


class _SpreadsheetSafeWriter:
    """``csv.writer`` whose every cell is guarded against formula injection."""

    def __init__(self, out: io.StringIO):
        self._writer = csv.writer(out, lineterminator="\r\n")

    def writerow(self, row: list) -> None:
        self._writer.writerow([spreadsheet_safe(cell) for cell in row])


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def _canvas(writer, round_: Round, rows: list[GradeRow], points_possible: float | None) -> None:
    # "ID" is Canvas's own user id, which Canvas matches first: Stumper cannot know it, and a
    # Stumper id there could match (and overwrite) a different Canvas student, so it stays empty
    # and Canvas matches on SIS User ID / SIS Login ID. No "(id)" after the column name either:
    # Canvas reads it as an assignment id; without it Canvas creates the assignment by name.
    writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", assignment_name(round_)])
    possible = points_possible if points_possible is not None else max((row.points for row in rows), default=0.0)
    writer.writerow([CANVAS_POINTS_POSSIBLE, "", "", "", "", _number(possible)])
    for row in rows:
        user = row.user
        name = f"{user.last_name}, {user.first_name}" if user.last_name and user.first_name else user.username
        writer.writerow([name, "", user.sis_user_id, user.username, user.section, _number(row.points)])


def _moodle(writer, round_: Round, rows: list[GradeRow], points_possible: float | None) -> None:
    # Moodle maps one identifier column to a user field: email when every student has one
    # (Moodle's usual key), otherwise the username (which must then match Moodle's usernames).
    by_email = bool(rows) and all(row.user.email for row in rows)
    writer.writerow(["Email address" if by_email else "Username", "Grade"])
    for row in rows:
        writer.writerow([row.user.email if by_email else row.user.username, _number(row.points)])


def _plain(writer, round_: Round, rows: list[GradeRow], points_possible: float | None) -> None:
    writer.writerow(["username", "email", "questions", "fooled_live", "fooled_cv", "credit", "points"])
    for row in rows:
        writer.writerow([row.user.username, row.user.email, row.questions, row.fooled_live, _number(row.fooled_cv),
                         _number(row.credit), _number(row.points)])
