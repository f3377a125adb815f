"""``views/grades.py``: the round page's grade download."""
import csv
import io

import pytest

from collector.tests.factories import messages_of, round_page_url
from core.registry import Gradebook, GradebookIdentity


@pytest.mark.django_db
class GradesDownloadTests:
    def test_canvas_download(self, client, instructor, graded_round):
        client.force_login(instructor)
        response = client.get(round_page_url("round_grades_download", graded_round), {"format": "canvas", "points_possible": "3"})
        assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
        assert response["Content-Disposition"] == f'attachment; filename="stumper-{graded_round.name}-grades-canvas.csv"'
        rows = list(csv.reader(io.StringIO(response.content.decode())))
        assert rows[1][5] == "3" and [row[3] for row in rows[2:]] == ["alice", "bob", "carol"]

    def test_plain_csv_by_default_form_values(self, client, instructor, graded_round):
        client.force_login(instructor)
        response = client.get(round_page_url("round_grades_download", graded_round), {"format": "csv"})
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert [(row["username"], row["credit"]) for row in rows] == [("alice", "4"), ("bob", "1"), ("carol", "0")]

    @pytest.mark.parametrize(
        ("params", "message"),
        [({"format": "excel"}, "Format: Select a valid choice."), ({"format": "csv", "points_possible": "-1"}, "greater than or equal to 0"),
         ({"format": "csv", "points_possible": "lots"}, "Enter a number."), ({"format": "csv", "points_possible": "inf"}, "Enter a number.")],
    )
    def test_bad_parameters_are_explained(self, client, instructor, round_, params, message):
        client.force_login(instructor)
        response = client.get(round_page_url("round_grades_download", round_), params, follow=True)
        assert response.status_code == 200 and message in messages_of(response)[0]

    def test_the_page_says_each_formats_key_and_who_each_file_leaves_out(self, client, instructor, student,
                                                                           graded_round, monkeypatch):
        client.force_login(instructor)
        page = client.get(round_page_url("round_detail", graded_round)).content.decode()
        assert "Canvas matches each row on SIS User ID, else SIS Login ID" in page
        assert "Moodle matches on Email address" in page and "Plain CSV lists everyone by username" in page
        assert page.count('data-field="grades-left-out"') == 1  # alice has no e-mail
        assert "Left out of the Moodle file (no Email address): alice." in page
        # alice made by an LMS launch that gave no ids: no SIS id or login for Canvas either; bob's launch gave
        # an e-mail while his profile has one too: nothing to say about him.
        lms = Gradebook(identities={student.pk: GradebookIdentity(lms_user_id="uuid-a"),
                                    graded_round.course.enrollments.get(user__username="bob").user_id:
                                        GradebookIdentity(email="bob@school.edu")})
        monkeypatch.setattr("collector.selectors.grades.gradebook_of", lambda *, round_id, user_ids: lms)
        page = client.get(round_page_url("round_detail", graded_round)).content.decode()
        assert "Left out of the Canvas file (no SIS User ID or SIS Login ID): alice." in page
        assert "Left out of the Moodle file (no Email address): alice." in page
        rows = list(csv.reader(io.StringIO(client.get(round_page_url("round_grades_download", graded_round),
                                                      {"format": "canvas"}).content.decode())))
        assert [row[3] for row in rows[2:]] == ["bob@school.edu", "carol"]  # the download leaves alice out too

    def test_students_may_not_download(self, client, student, round_):
        client.force_login(student)
        assert client.get(round_page_url("round_grades_download", round_), {"format": "csv"}).status_code == 403
