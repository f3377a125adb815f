"""A project's evaluation page: only its owner (and staff) may run and read reports."""
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from evaluation.models import EvaluationRun
from evaluation.services import reports as services
from evaluation.tests.factories import span_project

pytestmark = pytest.mark.django_db


@pytest.fixture
def project(instructor):
    return span_project(instructor)


@pytest.fixture
def finished(project, instructor, monkeypatch):
    from evaluation.services import ambiguity as ambiguity_services

    monkeypatch.setattr(ambiguity_services, "ambiguity_selectional_section", lambda **kw: None)
    monkeypatch.setattr(ambiguity_services, "ambiguity_retrieval_section", lambda **kw: None)
    run = services.evaluation_start_project(project=project, user=instructor, config={"k": 5, "max_steps": 20})
    return services.evaluation_run(run_id=run.pk)


class ProjectReportPageTests:
    def test_owner_sees_the_report(self, client, instructor, finished, project):
        client.force_login(instructor)
        page = client.get(reverse("evaluation:project_report", args=[project.pk])).content.decode()
        for text in ("Question answering: EM and F1", "Lexical artifacts", "Selectional ambiguity",
                     "No ambiguity data for this probe", reverse("annotation:project_dashboard", args=[project.pk]),
                     'class="vl-chart"', "Download CSV"):
            assert text in page, text
        detail = client.get(reverse("evaluation:run_detail", args=[finished.pk])).content.decode()
        assert "Evaluation of nile-eval" in detail

    @pytest.mark.parametrize("who", ["student", "crowdworker", "other_instructor"])
    def test_everyone_else_is_refused(self, client, project, finished, who, request):
        client.force_login(request.getfixturevalue(who))
        for url in (reverse("evaluation:project_report", args=[project.pk]),
                    reverse("evaluation:run_detail", args=[finished.pk]),
                    reverse("evaluation:run_json", args=[finished.pk]),
                    reverse("evaluation:run_table_csv", args=[finished.pk, "squad", "metrics"])):
            response = client.get(url)
            assert response.status_code == 403 and "owner can run or see" in response.content.decode(), url
        assert client.post(reverse("evaluation:project_report_start", args=[project.pk])).status_code == 403

    def test_start_from_the_page(self, client, instructor, project, monkeypatch):
        monkeypatch.setattr(services, "evaluation_schedule", lambda *, run_id: None)
        client.force_login(instructor)
        response = client.post(reverse("evaluation:project_report_start", args=[project.pk]),
                               {"k": "5", "p0": "prior", "max_steps": "10", "seed": "1"}, follow=True)
        run = EvaluationRun.objects.get()
        assert run.project == project and run.config["p0"] == "prior" and run.status == "queued"
        assert f"Report {run.pk} queued" in response.content.decode()

    def test_unknown_project(self, client, instructor):
        client.force_login(instructor)
        response = client.get(reverse("evaluation:project_report", args=[98765]))
        assert response.status_code == 403 and "no such annotation project" in response.content.decode()


class ProjectApiTests:
    def test_start_list_and_detail(self, instructor, project, monkeypatch):
        monkeypatch.setattr(services, "evaluation_schedule", lambda *, run_id: None)
        api = APIClient()
        api.force_authenticate(instructor)
        response = api.post(reverse("evaluation_api:project_run_start", args=[project.pk]), {"k": 3}, format="json")
        assert response.status_code == 201 and response.data["target"] == "project"
        listing = api.get(reverse("evaluation_api:project_run_list", args=[project.pk]))
        assert listing.data["count"] == 1
        detail = api.get(reverse("evaluation_api:run_detail", args=[response.data["id"]]))
        assert detail.data["project"] == "nile-eval" and detail.data["config"]["k"] == 3
        assert api.post(reverse("evaluation_api:project_run_start", args=[project.pk]), {}, format="json").status_code == 409

    def test_crowdworker_gets_403(self, crowdworker, project):
        api = APIClient()
        api.force_authenticate(crowdworker)
        response = api.post(reverse("evaluation_api:project_run_start", args=[project.pk]), {}, format="json")
        assert response.status_code == 403 and not EvaluationRun.objects.exists()
