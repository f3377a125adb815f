"""``export_grades``: each file format parses back with the expected rows and values; students with no
value for the format's key are left out and named in a warning."""
import csv
import io
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from collector.tests.factories import HOSTILE_PROFILE, HOSTILE_USERNAME, assert_spreadsheet_safe, enrol_hostile_student
from core.registry import Gradebook, GradebookIdentity


def export(round_name, fmt, *extra, tmp_path, students=3, warning="") -> list[list[str]]:
    path = tmp_path / f"grades-{fmt}.csv"
    out, err = StringIO(), StringIO()
    call_command("export_grades", "--round", round_name, "--format", fmt, *extra, str(path), stdout=out, stderr=err)
    assert f"Exported grades of {students} students of round {round_name}" in out.getvalue()
    assert err.getvalue().strip() == warning
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))


@pytest.mark.django_db
def test_canvas_file(graded_round, tmp_path):
    rows = export(graded_round.name, "canvas", "--points-possible", "3", tmp_path=tmp_path)
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", f"Stumper {graded_round.name}"]
    assert rows[1][0].strip() == "Points Possible" and rows[1][5] == "3"
    assert rows[2:] == [
        ["alice", "", "", "alice", "", "3"],  # credit 4 capped at 3; no full name: the username
        ["Brown, Bob", "", "S2", "bob", "B", "1"],
        ["carol", "", "S3", "carol", "", "0"],
    ]


@pytest.mark.django_db
def test_canvas_points_possible_defaults_to_the_best_students_points(graded_round, tmp_path):
    rows = export(graded_round.name, "canvas", tmp_path=tmp_path)
    assert rows[1][5] == "4" and [row[5] for row in rows[2:]] == ["4", "1", "0"]


@pytest.mark.django_db
def test_moodle_file_is_keyed_by_email_and_leaves_out_students_without_one(graded_round, student, tmp_path):
    # Moodle aborts the whole import on one user it cannot find: alice (no email) is left out, not keyed by a username.
    rows = export(graded_round.name, "moodle", tmp_path=tmp_path, students=2,
                  warning="Left out (no Email address): alice")
    assert rows == [["Email address", "Grade"], ["bob@example.edu", "1"], ["carol@example.edu", "0"]]
    student.email = "alice@example.edu"
    student.save()
    rows = export(graded_round.name, "moodle", "--points-possible", "2.5", tmp_path=tmp_path)
    assert rows == [["Email address", "Grade"], ["alice@example.edu", "2.5"], ["bob@example.edu", "1"],
                    ["carol@example.edu", "0"]]


@pytest.mark.django_db
def test_lms_accounts_are_named_as_the_lms_knows_them(graded_round, student, monkeypatch, tmp_path):
    """What an LMS launch gave (here through a stand-in for lti's gradebook hook): the SIS id and e-mail for
    Canvas's SIS User ID and SIS Login ID, the e-mail for Moodle, and the line item's label as the column;
    an LMS account with none of them is in no LMS file."""
    bob, carol = (row.user for row in graded_round.course.enrollments.exclude(user=student).order_by("user__username"))
    bob.first_name, bob.last_name, bob.email, bob.sis_user_id = "", "", "", ""  # made by a launch that gave no ids
    bob.save()
    lms = Gradebook(identities={student.pk: GradebookIdentity(sis_user_id="SIS-A", lms_user_id="535fa085-f655",
                                                              email="alice@school.edu"),
                                bob.pk: GradebookIdentity(lms_user_id="9f3c")},
                    lineitem_label="Week 3: fool the model")
    monkeypatch.setattr("collector.selectors.grades.gradebook_of", lambda *, round_id, user_ids: lms)
    canvas = export(graded_round.name, "canvas", tmp_path=tmp_path, students=2,
                    warning="Left out (no SIS User ID or SIS Login ID): bob")
    assert canvas[0][5] == "Week 3: fool the model"
    assert canvas[2:] == [["alice", "", "SIS-A", "alice@school.edu", "", "4"], ["carol", "", "S3", "carol", "", "0"]]
    moodle = export(graded_round.name, "moodle", tmp_path=tmp_path, students=2, warning="Left out (no Email address): bob")
    assert moodle[1:] == [["alice@school.edu", "4"], ["carol@example.edu", "0"]]
    plain = export(graded_round.name, "csv", tmp_path=tmp_path)
    assert [row[:2] + row[-2:] for row in plain[1:]] == [["alice", "alice@school.edu", "SIS-A", "535fa085-f655"],
                                                         ["bob", "", "", "9f3c"], ["carol", "carol@example.edu", "S3", ""]]


@pytest.mark.django_db
def test_plain_csv_file(graded_round, tmp_path):
    rows = export(graded_round.name, "csv", tmp_path=tmp_path)
    assert rows == [
        ["username", "email", "questions", "fooled_live", "fooled_cv", "credit", "points", "sis_user_id", "lms_user_id"],
        ["alice", "", "2", "1", "1.5", "4", "4", "", ""],
        ["bob", "bob@example.edu", "1", "1", "0", "1", "1", "S2", ""],
        ["carol", "carol@example.edu", "0", "0", "0", "0", "0", "S3", ""],
    ]


@pytest.mark.django_db
def test_names_and_sections_cannot_run_as_formulas(graded_round, course, tmp_path):
    enrol_hostile_student(course)
    quoted = {field: "'" + value for field, value in HOSTILE_PROFILE.items()}
    canvas = export(graded_round.name, "canvas", tmp_path=tmp_path, students=4)
    moodle = export(graded_round.name, "moodle", tmp_path=tmp_path, students=3,
                    warning="Left out (no Email address): alice")
    plain = export(graded_round.name, "csv", tmp_path=tmp_path, students=4)
    for rows in (canvas, moodle, plain):
        assert_spreadsheet_safe(rows)
    # Sorted by username, "-2+3" comes first; its cells keep their text after the apostrophe.
    name = f"{HOSTILE_PROFILE['last_name']}, {HOSTILE_PROFILE['first_name']}"
    assert canvas[2] == ["'" + name, "", quoted["sis_user_id"], "'" + HOSTILE_USERNAME, quoted["section"], "0"]
    assert canvas[3][0] == "alice"  # harmless cells are untouched
    assert moodle[1] == [quoted["email"], "0"]
    assert plain[1][:2] == ["'" + HOSTILE_USERNAME, quoted["email"]]


@pytest.mark.django_db
def test_standard_output_is_the_file_alone(graded_round):
    out, err = StringIO(), StringIO()
    call_command("export_grades", "--round", graded_round.name, "--format", "moodle", "-", stdout=out, stderr=err)
    assert out.getvalue().splitlines() == ["Email address,Grade", "bob@example.edu,1", "carol@example.edu,0"]
    assert "Left out (no Email address): alice" in err.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--round", "nope", "out.csv"], "No round is named 'nope'"),
        (["--round", "r1", "--format", "excel", "out.csv"], "invalid choice"),
        (["--round", "r1", "--points-possible", "-2", "out.csv"], "must be a number >= 0"),
        (["--round", "r1", "--points-possible", "nan", "out.csv"], "must be a number >= 0"),
        (["--round", "r1", "--points-possible", "ten", "out.csv"], "not a number"),
        (["--round", "r1", "/no/such/folder/out.csv"], "Cannot write"),
    ],
)
def test_mistakes_are_command_errors(round_, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("export_grades", *args, stdout=StringIO())
