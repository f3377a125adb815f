"""Grades and CODAH import over the API: the same files as the round page's download and the
import_codah command, with JSON errors (the CODAH export's tests are evaluation's)."""
import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from collector.models import Question
from collector.services.rounds import round_create
from collector.tests.factories import GOOD_ROWS, HOSTILE_USERNAME, assert_spreadsheet_safe, enrol_hostile_student, tsv

pytestmark = pytest.mark.django_db
GOOD_TSV = tsv(GOOD_ROWS)


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def upload(text: str | bytes, name: str = "questions.tsv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8") if isinstance(text, str) else text)


class RoundGradesApiTests:
    def test_csv_like_the_page(self, instructor, graded_round, client):
        api = client_of(instructor)
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
        response = client_of(instructor).get(reverse("api:round_grades", args=[graded_round.pk]), {"format": fmt})
        assert response.status_code == 200
        header = response.content.decode().splitlines()[0]
        assert header.startswith("Student,ID" if fmt == "canvas" else "Email address,Grade") or header == "Username,Grade"

    @pytest.mark.parametrize(("query", "field"), [({"format": "excel"}, "format"),
                                                  ({"points_possible": -1}, "points_possible")])
    def test_bad_parameters_are_a_json_400(self, instructor, graded_round, query, field):
        response = client_of(instructor).get(reverse("api:round_grades", args=[graded_round.pk]), query)
        assert response.status_code == 400 and field in response.json()

    def test_students_get_403(self, student, graded_round):
        assert client_of(student).get(reverse("api:round_grades", args=[graded_round.pk])).status_code == 403

    @pytest.mark.parametrize("fmt", ["canvas", "moodle", "csv"])
    def test_hostile_names_are_written_as_text(self, instructor, graded_round, course, client, fmt):
        enrol_hostile_student(course)
        response = client_of(instructor).get(reverse("api:round_grades", args=[graded_round.pk]), {"format": fmt})
        rows = list(csv.reader(io.StringIO(response.content.decode())))
        assert_spreadsheet_safe(rows)
        assert any(("'" + HOSTILE_USERNAME) in row for row in rows)
        client.force_login(instructor)
        page = client.get(reverse("collector:round_grades_download", args=[graded_round.pk]), {"format": fmt})
        assert page.content == response.content  # the page's download is guarded the same way


class RoundImportApiTests:
    def url(self, round_) -> str:
        return reverse("api:round_import", args=[round_.pk])

    def test_imports_every_row_as_the_owner(self, instructor, course):
        round_ = round_create(course=course, name="all-categories")
        response = client_of(instructor).post(self.url(round_), {"file": upload(GOOD_TSV)}, format="multipart")
        assert response.status_code == 201, response.data
        assert response.data["imported"] == 8 and len(response.data["question_ids"]) == 8
        assert set(Question.objects.values_list("author__username", "source", "status")) == {
            ("prof", "imported", "accepted")}

    def test_a_bad_row_imports_nothing_and_names_its_line(self, instructor, round_):
        text = GOOD_TSV.replace("had three apples left.", "")
        response = client_of(instructor).post(self.url(round_), {"file": upload(text)}, format="multipart")
        assert response.status_code == 400
        assert response.data["file"][0].startswith("line 1: ") and response.data["file"][-1] == "Nothing was imported."
        assert not Question.objects.exists()

    def test_limits_and_encoding(self, instructor, round_, settings):
        settings.STUMPER_IMPORT_MAX_ROWS, settings.STUMPER_IMPORT_MAX_BYTES = 3, 2000
        client = client_of(instructor)
        too_many = client.post(self.url(round_), {"file": upload(GOOD_TSV)}, format="multipart")
        assert too_many.status_code == 400 and "at most 3" in too_many.data["file"][0]
        too_big = client.post(self.url(round_), {"file": upload(GOOD_TSV * 4)}, format="multipart")
        assert too_big.status_code == 400 and "larger than 2,000 bytes" in too_big.data["file"][0]
        latin1 = client.post(self.url(round_), {"file": upload("q\tCaf\xe9\n".encode("latin-1"))}, format="multipart")
        assert latin1.status_code == 400 and "UTF-8" in latin1.data["file"][0]
        assert client.post(self.url(round_), {}, format="multipart").status_code == 400
        assert not Question.objects.exists()

    def test_other_instructors_get_403(self, other_instructor, round_):
        response = client_of(other_instructor).post(self.url(round_), {"file": upload(GOOD_TSV)}, format="multipart")
        assert response.status_code == 403 and not Question.objects.exists()
