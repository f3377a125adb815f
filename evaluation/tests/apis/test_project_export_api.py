"""``GET /api/annotation/projects/<id>/export/`` with the optional ``weights_run``."""
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from annotation.squad_selectors import project_squad_dict
from annotation.tests.factories import make_project
from evaluation.selectors.exports import evaluation_run_weights
from evaluation.services import reports as evaluation_services

pytestmark = pytest.mark.django_db


def get_export(user, project, **params):
    client = APIClient()
    client.force_authenticate(user)
    return client.get(reverse("annotation_api:project_export", args=[project.pk]), params)


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
        queued = evaluation_services.evaluation_start_project(project=project)
        other = make_project(instructor, name="other")

        unfinished = get_export(instructor, project, weights_run=queued.pk)
        elsewhere = get_export(instructor, other, weights_run=report.pk)

        assert unfinished.status_code == 400 and unfinished.json() == {"weights_run": [
            f"Evaluation report {queued.pk} has not finished (it is queued); only a finished report has weights."]}
        assert elsewhere.status_code == 400 and elsewhere.json() == {"weights_run": [
            f"Evaluation report {report.pk} is not a report of project other."]}
        assert get_export(instructor, project, weights_run="first").status_code == 400

    def test_only_the_owner_may_export(self, weighed_project, other_instructor):
        project, report = weighed_project
        response = get_export(other_instructor, project, weights_run=report.pk)
        assert response.status_code == 403 and "weight" not in response.content.decode()
