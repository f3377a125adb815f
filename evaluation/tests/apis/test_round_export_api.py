"""``GET /api/rounds/<id>/export/``: the round's questions as CODAH TSV (as ``export_codah``
writes them) or JSON lines, optionally with an evaluation report's weights; JSON errors."""
import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from collector import services
from collector.tests.factories import GOOD_ROWS, tsv
from evaluation.tests.factories import finished_report

pytestmark = pytest.mark.django_db
GOOD_TSV = tsv(GOOD_ROWS)


def export(user, round_, **params):
    client = APIClient()
    client.force_authenticate(user)
    return client.get(reverse("api:round_export", args=[round_.pk]), params)


@pytest.fixture
def weighed_round(instructor, course):
    """A round with the eight sample questions and a finished evaluation report of them."""
    round_ = services.round_create(course=course, name="weighed")
    services.codah_import(round_=round_, text=GOOD_TSV, author=instructor)
    return round_, finished_report(instructor, round_=round_)


class RoundExportApiTests:
    def test_tsv_round_trips(self, instructor, course):
        round_ = services.round_create(course=course, name="plain")
        services.codah_import(round_=round_, text=GOOD_TSV, author=instructor)
        response = export(instructor, round_)
        assert response.status_code == 200 and response.content.decode() == GOOD_TSV
        assert response["Content-Disposition"] == 'attachment; filename="plain.tsv"'

    def test_jsonl_with_weights(self, instructor, weighed_round):
        round_, run = weighed_round
        response = export(instructor, round_, format="jsonl", weights_run=run.pk)
        assert response.status_code == 200 and response["Content-Type"].startswith("application/x-ndjson")
        records = [json.loads(line) for line in response.content.decode().splitlines()]
        assert len(records) == 8 and all(len(r["weights"]) == 4 for r in records)

    def test_tsv_with_weights_has_eleven_columns(self, instructor, weighed_round):
        round_, run = weighed_round
        response = export(instructor, round_, weights_run=run.pk)
        assert {len(line.split("\t")) for line in response.content.decode().splitlines()} == {11}

    def test_weights_of_another_rounds_report_are_refused(self, instructor, weighed_round, course):
        _, run = weighed_round
        other = services.round_create(course=course, name="other")
        response = export(instructor, other, weights_run=run.pk)
        assert response.status_code == 400 and "not a report of round other" in response.json()["weights_run"][0]
        assert export(instructor, other, format="xml").status_code == 400

    def test_students_get_403(self, student, round_):
        assert export(student, round_).status_code == 403
