"""The owner's SQuAD export: the dashboard's export form and the download, with and without weights."""
import json

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils.timezone import localtime

from annotation.selectors.exports import project_squad_dict
from annotation.tests.factories import make_project
from evaluation.selectors.exports import evaluation_run_weights
from evaluation.services import reports as report_services
from evaluation.tests.factories import finished_report, span_project

pytestmark = pytest.mark.django_db


def export(client, project, **params):
    return client.get(reverse("evaluation:project_export", args=[project.pk]), params)


def qas(data: dict) -> list[dict]:
    return [qa for a in data["data"] for p in a["paragraphs"] for qa in p["qas"]]


class ExportFormTests:
    def test_the_dashboard_offers_the_finished_reports_with_weights(self, client, weighed_project):
        project, report = weighed_project
        report_services.evaluation_start_project(project=project)  # queued: no weights to offer
        client.force_login(project.owner)

        page = client.get(reverse("annotation:project_dashboard", args=[project.pk])).content.decode()

        assert f'action="{reverse("evaluation:project_export", args=[project.pk])}"' in page
        assert '<option value="" selected>No weights</option>' in page
        assert f'<option value="{report.pk}">Report {report.pk}, finished {localtime(report.finished_at):%Y-%m-%d %H:%M}</option>' in page
        export_form = page.split(f'action="{reverse("evaluation:project_export", args=[project.pk])}"', 1)[1].split("</form>", 1)[0]
        assert export_form.count("<option value=") == 1 + 4 + 1  # splits: all + 3; runs: no weights + the finished one
        assert "--weights-from RUN_ID" in page and reverse("evaluation:project_report", args=[project.pk]) in page

    def test_without_reports_the_form_says_so(self, client, instructor):
        project = make_project(instructor)
        client.force_login(instructor)
        page = client.get(reverse("annotation:project_dashboard", args=[project.pk])).content.decode()
        assert "No finished evaluation report of this project has weights yet." in page


class ExportDownloadTests:
    def test_the_default_download_is_unchanged(self, client, weighed_project):
        project, _ = weighed_project
        client.force_login(project.owner)

        response = export(client, project)

        assert response["Content-Disposition"] == 'attachment; filename="nile-eval-all.json"'
        assert response.content.decode() == json.dumps(project_squad_dict(project=project), ensure_ascii=False)
        assert export(client, project, split="validation", weights_run="")["Content-Disposition"].endswith(
            'nile-eval-validation.json"')

    def test_a_chosen_report_adds_a_weight_to_every_qa(self, client, weighed_project):
        project, report = weighed_project
        client.force_login(project.owner)

        response = export(client, project, split="train", weights_run=report.pk)

        assert response["Content-Disposition"] == f'attachment; filename="nile-eval-train-weights-{report.pk}.json"'
        weights = evaluation_run_weights(run_id=report.pk, project=project)
        assert json.loads(response.content) == project_squad_dict(project=project, split="train", weights=weights)
        assert len(qas(json.loads(response.content))) == 8

    @pytest.mark.parametrize("which", ["queued", "other_project", "no_weights", "garbage", "bad_split"])
    def test_an_unusable_choice_exports_nothing_and_says_why(self, client, weighed_project, instructor, which):
        project, report = weighed_project
        params = {"weights_run": report.pk}
        if which == "queued":
            params["weights_run"] = report_services.evaluation_start_project(project=project).pk
        elif which == "other_project":  # finished, with weights, but of another project
            params["weights_run"] = finished_report(instructor, project=span_project(instructor, name="nile-2")).pk
        elif which == "no_weights":  # a finished report of a project without submitted questions
            params["weights_run"] = report_services.evaluation_run(
                run_id=report_services.evaluation_start_project(project=make_project(instructor, name="empty")).pk).pk
        elif which == "garbage":
            params["weights_run"] = "first"
        else:
            params["split"] = "dev"
        client.force_login(instructor)

        response = export(client, project, **params)

        assert response.status_code == 302
        assert response.url == reverse("annotation:project_dashboard", args=[project.pk])
        [message] = [str(m) for m in get_messages(response.wsgi_request)]
        expected = "Select a valid choice." if which == "bad_split" else (
            "Choose a finished evaluation report of this project that has weights.")
        assert message.startswith("Nothing exported. ") and expected in message

    def test_only_the_owner_downloads(self, client, weighed_project, other_instructor):
        project, report = weighed_project
        client.force_login(other_instructor)
        assert export(client, project, weights_run=report.pk).status_code == 403
