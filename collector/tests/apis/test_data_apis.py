"""Grades, CODAH export and CODAH import over the API: the same files as the round page's
download and the export_codah / import_codah commands, with JSON errors."""
import csv
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from collector import services
from collector.models import Question
from collector.tests.commands.conftest import GOOD_ROWS, tsv
from collector.tests.factories import HOSTILE_USERNAME, assert_spreadsheet_safe, enrol_hostile_student

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
        round_ = services.round_create(course=course, name="all-categories")
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


@pytest.fixture
def weighed_round(instructor, course):
    """A round with the eight sample questions and a finished evaluation report of them."""
    from evaluation.tests.factories import finished_report

    round_ = services.round_create(course=course, name="weighed")
    services.codah_import(round_=round_, text=GOOD_TSV, author=instructor)
    return round_, finished_report(instructor, round_=round_)


class RoundExportApiTests:
    def url(self, round_) -> str:
        return reverse("api:round_export", args=[round_.pk])

    def test_tsv_round_trips(self, instructor, course):
        round_ = services.round_create(course=course, name="plain")
        services.codah_import(round_=round_, text=GOOD_TSV, author=instructor)
        response = client_of(instructor).get(self.url(round_))
        assert response.status_code == 200 and response.content.decode() == GOOD_TSV
        assert response["Content-Disposition"] == 'attachment; filename="plain.tsv"'

    def test_jsonl_with_weights(self, instructor, weighed_round):
        round_, run = weighed_round
        response = client_of(instructor).get(self.url(round_), {"format": "jsonl", "weights_run": run.pk})
        assert response.status_code == 200 and response["Content-Type"].startswith("application/x-ndjson")
        records = [json.loads(line) for line in response.content.decode().splitlines()]
        assert len(records) == 8 and all(len(r["weights"]) == 4 for r in records)

    def test_tsv_with_weights_has_eleven_columns(self, instructor, weighed_round):
        round_, run = weighed_round
        response = client_of(instructor).get(self.url(round_), {"weights_run": run.pk})
        assert {len(line.split("\t")) for line in response.content.decode().splitlines()} == {11}

    def test_weights_of_another_rounds_report_are_refused(self, instructor, weighed_round, course):
        _, run = weighed_round
        other = services.round_create(course=course, name="other")
        response = client_of(instructor).get(self.url(other), {"weights_run": run.pk})
        assert response.status_code == 400 and "not a report of round other" in response.json()["weights_run"][0]
        assert client_of(instructor).get(self.url(other), {"format": "xml"}).status_code == 400

    def test_students_get_403(self, student, round_):
        assert client_of(student).get(self.url(round_)).status_code == 403
