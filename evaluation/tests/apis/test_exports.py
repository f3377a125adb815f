"""The weighted exports' API: ``GET /api/rounds/<id>/export/`` (CODAH TSV, as ``export_codah`` writes it,
or JSON lines) and ``GET /api/annotation/projects/<id>/export/`` (SQuAD JSON), each optionally with an
evaluation report's weights (``weights_run``); JSON errors."""
import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from annotation.selectors.exports import project_squad_dict
from annotation.tests.factories import make_project
from collector.services.imports import codah_import
from collector.services.rounds import round_create
from collector.tests.factories import GOOD_ROWS, tsv
from evaluation.selectors.exports import evaluation_run_weights
from evaluation.services import reports as report_services
from evaluation.tests.factories import finished_report

pytestmark = pytest.mark.django_db


GOOD_TSV = tsv(GOOD_ROWS)


def export(user, round_, **params):
    client = APIClient()
    client.force_authenticate(user)
    return client.get(reverse("evaluation_api:round_export", args=[round_.pk]), params)


@pytest.fixture
def weighed_round(instructor, course):
    """A round with the eight sample questions and a finished evaluation report of them."""
    round_ = round_create(course=course, name="weighed")
    codah_import(round_=round_, text=GOOD_TSV, author=instructor)
    return round_, finished_report(instructor, round_=round_)


class RoundExportApiTests:
    def test_tsv_round_trips(self, instructor, course):
        round_ = round_create(course=course, name="plain")
        codah_import(round_=round_, text=GOOD_TSV, author=instructor)
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
        other = round_create(course=course, name="other")
        response = export(instructor, other, weights_run=run.pk)
        assert response.status_code == 400 and "not a report of round other" in response.json()["weights_run"][0]
        assert export(instructor, other, format="xml").status_code == 400

    def test_students_get_403(self, student, round_):
        assert export(student, round_).status_code == 403


def get_export(user, project, **params):
    client = APIClient()
    client.force_authenticate(user)
    return client.get(reverse("evaluation_api:project_export", args=[project.pk]), params)


class ProjectExportApiTests:
    def test_weights_run_adds_a_weight_to_every_qa(self, weighed_project):
        project, report = weighed_project

        response = get_export(project.owner, project, weights_run=report.pk)

        assert response.status_code == 200
        weights = evaluation_run_weights(run_id=report.pk, project=project)
        data = response.json()
        assert data == project_squad_dict(project=project, weights=weights)
        weighed = [qa["weight"] for a in data["data"] for p in a["paragraphs"] for qa in p["qas"]]
        assert len(weighed) == 12 and sum(w is not None for w in weighed) == 8

    def test_without_weights_run_the_export_is_unchanged(self, weighed_project):
        project, _ = weighed_project
        assert get_export(project.owner, project, split="validation").json() == project_squad_dict(
            project=project, split="validation")

    def test_an_unusable_weights_run_is_a_field_error(self, weighed_project, instructor):
        project, report = weighed_project
        queued = report_services.evaluation_start_project(project=project)
        other = make_project(instructor, name="other")

        unfinished = get_export(instructor, project, weights_run=queued.pk)
        elsewhere = get_export(instructor, other, weights_run=report.pk)

        assert unfinished.status_code == 400 and unfinished.json() == {"weights_run": [
            f"Evaluation report {queued.pk} has not finished (it is queued); only a finished report has weights."]}
        assert elsewhere.status_code == 400 and elsewhere.json() == {"weights_run": [
            f"Evaluation report {report.pk} is not a report of project other."]}
        assert get_export(instructor, project, weights_run="first").status_code == 400
        assert get_export(instructor, project, split="dev").status_code == 400  # no such split

    def test_only_the_owner_may_export(self, weighed_project, other_instructor):
        project, report = weighed_project
        response = get_export(other_instructor, project, weights_run=report.pk)
        assert response.status_code == 403 and "weight" not in response.content.decode()
