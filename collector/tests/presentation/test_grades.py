"""``presentation/grades.py`` against the published import rules of each format.

Canvas (canvas-lms ``app/models/gradebook_importer.rb``, "How do I import grades in the Gradebook?"): the
header is ``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``, ``Section``, then one column per assignment,
"Name (assignment id)" or a name Canvas finds among the course's assignments (else it makes a new one). A row
is matched by ``ID`` (read as an integer), else ``SIS User ID``, else ``SIS Login ID``, else by name.

Moodle (Grades > Import > CSV file, ``grade/import/csv``): one column is mapped to a user field (here
"Email address" to useremail) and one user the field does not find aborts the whole file
(``usermappingerrorusernotfound``).

The small importers below follow these rules; every test gives the LMS's side (students, assignments).
"""
import csv
import io
import re

import pytest

from accounts.models import User
from collector.models import Round
from collector.presentation.grades import FORMAT_KEYS, grades_file, grades_left_out
from collector.selectors.grades import GradeRow
from core.registry import Gradebook, GradebookIdentity

ALICE = User(pk=1, username="alice", first_name="Alice", last_name="Adams", email="alice@stumper.test", sis_user_id="")
BOB = User(pk=2, username="lti7-0f3a9c", first_name="Bob", last_name="Brown", email="")  # made by a launch
CAROL = User(pk=3, username="lti7-77b1e2", first_name="", last_name="", email="")  # a launch that gave nothing
ROUND = Round(pk=5, name="lti-round-1", title="Fool the model")
LMS = Gradebook(identities={BOB.pk: GradebookIdentity(sis_user_id="2024-0042", lms_user_id="535fa085-f655-4c33",
                                                      email="bob@school.edu"),
                            CAROL.pk: GradebookIdentity(lms_user_id="9d1c2b7e")},
                lineitem_label="Week 3: fool the model")


def rows(*points) -> list[GradeRow]:
    return [GradeRow(user, 1, 1, 0.0, p, p) for user, p in zip((ALICE, BOB, CAROL), points, strict=True)]


class CanvasImportError(Exception):
    pass


def canvas_import(text: str, *, students: list[dict], assignments: dict[int, str]) -> dict:
    """What Canvas's gradebook importer does with ``text``: {(student id, assignment id): grade}; a row it
    cannot match gets student None, a column it cannot find assignment None (a new assignment)."""
    header, *body = csv.reader(io.StringIO(text))
    if not (re.search("Student", header[0]) and re.search("ID", header[1]) and re.search(r"SIS\s+User\s+ID", header[2])
            and re.search(r"SIS\s+Login\s+ID", header[3]) and re.search("Section", header[4])):
        raise CanvasImportError("Invalid header row")
    columns = []
    for name in header[5:]:
        match = re.fullmatch(r"(.*)\s+\((\d+)\)", name)
        found = int(match.group(2)) if match and int(match.group(2)) in assignments else None
        columns.append(found or next((i for i, title in assignments.items() if title == name), None))
    grades = {}
    for row in body:
        if "Points Possible" in row[0]:
            continue
        student = None
        if row[1]:
            student = next((s["id"] for s in students if s["id"] == int(re.match(r"\d*", row[1]).group() or 0)), None)
        student = student or next((s["id"] for s in students if row[2] and s["sis_user_id"] == row[2]), None)
        student = student or next((s["id"] for s in students if row[3] and s["login_id"] == row[3]), None)
        student = student or next((s["id"] for s in students if row[0] in (s["name"], s["sortable_name"])), None)
        for assignment, grade in zip(columns, row[5:], strict=True):
            grades[(student, assignment)] = grade
    return grades


class MoodleImportAborted(Exception):
    pass


def moodle_import(text: str, *, users: dict[str, int], map_from: str = "Email address") -> dict[int, str]:
    """Moodle's CSV grade import with ``map_from`` mapped to useremail: {user id: grade}, or abort."""
    header, *body = csv.reader(io.StringIO(text))
    key = header.index(map_from)
    grades = {}
    for row in body:
        if row[key] not in users:
            raise MoodleImportAborted(f"usermappingerrorusernotfound: {row[key]}")
        grades[users[row[key]]] = row[header.index("Grade")]
    return grades


def test_canvas_matches_lms_accounts_by_the_launchs_ids_into_the_line_items_column():
    canvas_students = [  # Canvas's ids are its own integers; 535 exists, as the UUID subject's digits would read
        {"id": 535, "name": "Mallory", "sortable_name": "Mallory", "sis_user_id": "", "login_id": "mallory"},
        {"id": 11, "name": "Alice Adams", "sortable_name": "Adams, Alice", "sis_user_id": "", "login_id": "alice"},
        {"id": 12, "name": "Bob Brown", "sortable_name": "Brown, Bob", "sis_user_id": "2024-0042",
         "login_id": "bob@school.edu"},
    ]
    file = grades_file(round_=ROUND, rows=rows(3, 2, 1), fmt="canvas", gradebook=LMS)
    header = next(csv.reader(io.StringIO(file.text)))
    assert header == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Week 3: fool the model"]
    imported = canvas_import(file.text, students=canvas_students, assignments={77: "Week 3: fool the model"})
    assert imported == {(11, 77): "3", (12, 77): "2"}  # no new column, nobody matched wrongly, Carol not in it
    assert file.left_out == ["lti7-77b1e2"]


def test_canvas_without_an_lms_is_keyed_by_the_stumper_login_and_names_its_own_column():
    file = grades_file(round_=ROUND, rows=rows(3, 2, 1), fmt="canvas")
    assert next(csv.reader(io.StringIO(file.text)))[5] == "Stumper lti-round-1"
    imported = canvas_import(file.text, assignments={}, students=[
        {"id": pk, "name": "?", "sortable_name": "?", "sis_user_id": "", "login_id": login}
        for pk, login in ((21, "alice"), (22, "lti7-0f3a9c"), (23, "lti7-77b1e2"))])
    assert imported == {(21, None): "3", (22, None): "2", (23, None): "1"}  # a new assignment, every row matched
    assert file.left_out == []


def test_moodle_by_email_imports_without_aborting_and_leaves_out_who_has_none():
    moodle_users = {"alice@stumper.test": 101, "bob@school.edu": 102}
    file = grades_file(round_=ROUND, rows=rows(3, 2.5, 1), fmt="moodle", gradebook=LMS)
    assert moodle_import(file.text, users=moodle_users) == {101: "3", 102: "2.5"}
    assert file.left_out == ["lti7-77b1e2"]
    without_lms = grades_file(round_=ROUND, rows=rows(3, 2.5, 1), fmt="moodle")  # Bob's Stumper profile has no e-mail
    assert moodle_import(without_lms.text, users=moodle_users) == {101: "3"}
    assert without_lms.left_out == ["Bob Brown (lti7-0f3a9c)", "lti7-77b1e2"]
    with pytest.raises(MoodleImportAborted):  # the rule the file is built for: one unknown user stops everything
        moodle_import("Email address,Grade\r\nnobody@x.test,1\r\n", users=moodle_users)


def test_plain_csv_keeps_everyone_with_the_lms_ids():
    file = grades_file(round_=ROUND, rows=rows(3, 2, 1), fmt="csv", gradebook=LMS)
    table = list(csv.DictReader(io.StringIO(file.text)))
    assert [(r["username"], r["email"], r["sis_user_id"], r["lms_user_id"]) for r in table] == [
        ("alice", "alice@stumper.test", "", ""), ("lti7-0f3a9c", "bob@school.edu", "2024-0042", "535fa085-f655-4c33"),
        ("lti7-77b1e2", "", "", "9d1c2b7e")]
    assert file.left_out == []


def test_the_page_list_names_each_format_that_leaves_someone_out_with_its_key():
    gaps = grades_left_out(users=[ALICE, BOB, CAROL], gradebook=LMS)
    assert gaps == [
        {"format": "Canvas", "key": FORMAT_KEYS["canvas"], "students": ["lti7-77b1e2"]},
        {"format": "Moodle", "key": "Email address", "students": ["lti7-77b1e2"]},
    ]
    assert grades_left_out(users=[ALICE], gradebook=None) == []
