"""The grade files LMSs import: Canvas, Moodle or plain CSV, from ``selectors.grades.round_grades`` rows.

A pure function of its rows (``grades_csv``). Canvas additionally gets its "Points Possible" row:
P, or without P the highest points in the file (so the best student has 100%).

Names, sections, usernames and emails are typed by people, so every cell goes through
``spreadsheet_safe`` (a name like ``=HYPERLINK(...)`` is written as text, not run as a formula).
"""
import csv
import io

from collector.models import Round
from collector.presentation.csv_safety import spreadsheet_safe
from collector.selectors.grades import GradeRow

FORMATS = ("canvas", "moodle", "csv")
CANVAS_POINTS_POSSIBLE = "    Points Possible"  # as in Canvas's own exports (leading spaces included)


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
