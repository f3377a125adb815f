"""``apis/grades.py``: grades over the API, the same files as the round page's download, with JSON errors."""
import csv
import io

import pytest
from django.urls import reverse

from collector.tests.factories import (
    HOSTILE_PROFILE,
    HOSTILE_USERNAME,
    api_client,
    assert_spreadsheet_safe,
    enrol_hostile_student,
)

pytestmark = pytest.mark.django_db




class RoundGradesApiTests:
    def test_csv_like_the_page(self, instructor, graded_round, client):
        api = api_client(instructor)
        response = api.get(reverse("api:round_grades", args=[graded_round.pk]), {"format": "csv", "points_possible": 2})
        assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
        assert response["Content-Disposition"] == 'attachment; filename="stumper-r1-grades-csv.csv"'
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert [(r["username"], r["points"]) for r in rows] == [("alice", "2"), ("bob", "1"), ("carol", "0")]
        client.force_login(instructor)
        page = client.get(reverse("collector:round_grades_download", args=[graded_round.pk]),
                          {"format": "csv", "points_possible": 2})
        assert page.content == response.content

    @pytest.mark.parametrize("fmt", ["canvas", "moodle"])
    def test_lms_formats(self, instructor, graded_round, fmt):
        response = api_client(instructor).get(reverse("api:round_grades", args=[graded_round.pk]), {"format": fmt})
        assert response.status_code == 200
        header = response.content.decode().splitlines()[0]
        assert header.startswith("Student,ID" if fmt == "canvas" else "Email address,Grade")

    @pytest.mark.parametrize(("query", "field"), [({"format": "excel"}, "format"),
                                                  ({"points_possible": -1}, "points_possible")])
    def test_bad_parameters_are_a_json_400(self, instructor, graded_round, query, field):
        response = api_client(instructor).get(reverse("api:round_grades", args=[graded_round.pk]), query)
        assert response.status_code == 400 and field in response.json()

    def test_students_get_403(self, student, graded_round):
        assert api_client(student).get(reverse("api:round_grades", args=[graded_round.pk])).status_code == 403

    @pytest.mark.parametrize("fmt", ["canvas", "moodle", "csv"])
    def test_hostile_names_are_written_as_text(self, instructor, graded_round, course, client, fmt):
        enrol_hostile_student(course)
        response = api_client(instructor).get(reverse("api:round_grades", args=[graded_round.pk]), {"format": fmt})
        rows = list(csv.reader(io.StringIO(response.content.decode())))
        assert_spreadsheet_safe(rows)
        key = HOSTILE_PROFILE["email"] if fmt == "moodle" else HOSTILE_USERNAME  # Moodle's file is keyed by e-mail
        assert any(("'" + key) in row for row in rows)
        client.force_login(instructor)
        page = client.get(reverse("collector:round_grades_download", args=[graded_round.pk]), {"format": fmt})
        assert page.content == response.content  # the page's download is guarded the same way
