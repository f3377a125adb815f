"""The grade files LMSs import: Canvas, Moodle or plain CSV, from ``selectors.grades.round_grades`` rows.

A pure function of its rows and of what the LMS knows (``grades_file``; the ``Gradebook`` of
``core.registry``, filled by lti for accounts made by an LMS launch). Canvas additionally gets its
"Points Possible" row: P, or without P the highest points in the file (so the best student has 100%).

Each format has one key the LMS matches a row on (``FORMAT_KEYS``); a student with no value for it is
left out of the file and named in ``GradesFile.left_out``: Moodle aborts the whole import on one row it
cannot match, and Canvas would match a row without ids by name only.

Names, sections, usernames and emails are typed by people, so every cell goes through
``core.csv_safety`` (a name like ``=HYPERLINK(...)`` is written as text, not run as a formula).
"""
import io
from collections.abc import Iterable
from dataclasses import dataclass

from accounts.models import User
from collector.models import Round
from collector.selectors.grades import GradeRow
from core.csv_safety import SpreadsheetWriter
from core.registry import Gradebook, GradebookIdentity

FORMATS = ("canvas", "moodle", "csv")
FORMAT_LABELS = {"canvas": "Canvas", "moodle": "Moodle", "csv": "Plain CSV"}
FORMAT_KEYS = {  # what the LMS matches a row on (docs/scoring.md)
    "canvas": "SIS User ID or SIS Login ID",
    "moodle": "Email address",
    "csv": "username",
}
CANVAS_POINTS_POSSIBLE = "    Points Possible"  # as in Canvas's own exports (leading spaces included)


def assignment_name(round_: Round) -> str:
    """The grade column's name in Canvas (and the Moodle grade item to map it to) for a round no LMS links."""
    return f"Stumper {round_.name}"


def lineitem_label(round_: Round) -> str:
    """The label of the LMS gradebook column made when an instructor places the round in an LMS."""
    return round_.title or assignment_name(round_)


@dataclass(frozen=True)
class StudentIds:
    """How an LMS can tell who a row is ("" where it cannot)."""

    sis_user_id: str
    login_id: str  # Canvas's "SIS Login ID"
    email: str
    lms_user_id: str


@dataclass(frozen=True)
class GradesFile:
    text: str
    left_out: list[str]  # the students not in the file (no value for the format's key), as ``who`` names them


def student_ids(user: User, identity: GradebookIdentity | None) -> StudentIds:
    """An LMS account's ids as its launches gave them, anyone else's from the profile. An LMS account's
    Stumper username means nothing to the LMS, and the LTI claims carry no LMS login name: its e-mail
    stands in as the login (many schools' Canvas logins are e-mail addresses)."""
    if identity is None:
        return StudentIds(user.sis_user_id, user.username, user.email, "")
    email = identity.email or user.email
    return StudentIds(identity.sis_user_id or user.sis_user_id, email, email, identity.lms_user_id)


def who(user: User) -> str:
    """A student as the warnings name them: full name and username, since an LMS account's username is
    made up by Stumper."""
    full = user.get_full_name()
    return f"{full} ({user.username})" if full else user.username


def _key(fmt: str, user: User, ids: StudentIds) -> str:
    """The value the LMS matches the row on; "" leaves the row out."""
    return {"canvas": ids.sis_user_id or ids.login_id, "moodle": ids.email, "csv": user.username}[fmt]


def _identity(gradebook: Gradebook | None, user: User) -> GradebookIdentity | None:
    return gradebook.identities.get(user.pk) if gradebook is not None else None


def grades_left_out(*, users: Iterable[User], gradebook: Gradebook | None) -> list[dict]:
    """For the round page: each format that would leave students out, with its key and who they are."""
    users = list(users)
    found = []
    for fmt in FORMATS:
        names = [who(user) for user in users if not _key(fmt, user, student_ids(user, _identity(gradebook, user)))]
        if names:
            found.append({"format": FORMAT_LABELS[fmt], "key": FORMAT_KEYS[fmt], "students": names})
    return found


def grades_file(*, round_: Round, rows: list[GradeRow], fmt: str, points_possible: float | None = None,
                gradebook: Gradebook | None = None) -> GradesFile:
    """The rows as a CSV file for ``fmt``: ``canvas``, ``moodle`` or ``csv`` (see docs/scoring.md), without
    the students who have no value for the format's key."""
    writers = {"canvas": _canvas, "moodle": _moodle, "csv": _plain}
    if fmt not in writers:
        raise ValueError(f"Unknown grade format {fmt!r}; choose one of {', '.join(FORMATS)}.")
    kept, left_out = [], []
    for row in rows:
        ids = student_ids(row.user, _identity(gradebook, row.user))
        if _key(fmt, row.user, ids):
            kept.append((row, ids))
        else:
            left_out.append(who(row.user))
    column = (gradebook.lineitem_label if gradebook is not None else "") or assignment_name(round_)
    out = io.StringIO()
    writers[fmt](SpreadsheetWriter(out, lineterminator="\r\n"), column, kept, points_possible)
    return GradesFile(out.getvalue(), left_out)


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def _canvas(writer, column: str, rows: list[tuple[GradeRow, StudentIds]], points_possible: float | None) -> None:
    # "ID" is Canvas's own user id, which Canvas matches first, read as an integer ("535fa085-..." is
    # user 535). Stumper does not know it: Canvas's LTI subject is a UUID, not this id, and a Stumper id
    # or another LMS's numeric subject could match (and overwrite) a different Canvas student. So it
    # stays empty and Canvas matches on SIS User ID, then SIS Login ID. The column is the LMS line
    # item's label for a round placed in the LMS, so Canvas finds that assignment by its name;
    # otherwise "Stumper <round>", created on the first import. No "(id)" after the name: Canvas would
    # read it as an assignment id.
    writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", column])
    possible = (points_possible if points_possible is not None
                else max((row.points for row, _ in rows), default=0.0))
    writer.writerow([CANVAS_POINTS_POSSIBLE, "", "", "", "", _number(possible)])
    for row, ids in rows:
        user = row.user
        name = f"{user.last_name}, {user.first_name}" if user.last_name and user.first_name else user.username
        writer.writerow([name, "", ids.sis_user_id, ids.login_id, user.section, _number(row.points)])


def _moodle(writer, column: str, rows: list[tuple[GradeRow, StudentIds]], points_possible: float | None) -> None:
    # Moodle's CSV grade import maps one column to a user field and aborts the whole file on a value it
    # cannot find (usermappingerrorusernotfound): the e-mail address, which Moodle accounts and LMS
    # launches both carry. Students without one are left out, never keyed by a Stumper username.
    writer.writerow(["Email address", "Grade"])
    for row, ids in rows:
        writer.writerow([ids.email, _number(row.points)])


def _plain(writer, column: str, rows: list[tuple[GradeRow, StudentIds]], points_possible: float | None) -> None:
    writer.writerow(["username", "email", "questions", "fooled_live", "fooled_cv", "credit", "points",
                     "sis_user_id", "lms_user_id"])
    for row, ids in rows:
        writer.writerow([row.user.username, ids.email, row.questions, row.fooled_live, _number(row.fooled_cv),
                         _number(row.credit), _number(row.points), ids.sis_user_id, ids.lms_user_id])
