"""The reports' API: start a report of a round or a project, list and fetch them, a table as CSV."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from evaluation.models import EvaluationRun
from evaluation.services import reports as report_services
from evaluation.tests.factories import span_project

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def start_url(round_):
    return reverse("evaluation_api:round_run_start", args=[round_.pk])


class EvaluationRunStartApiTests:
    def test_start_returns_the_queued_run(self, api, instructor, round_):
        api.force_authenticate(instructor)
        response = api.post(start_url(round_), {"k": 10, "p0": "prior", "min_count": None}, format="json")
        assert response.status_code == 201, response.data
        run = EvaluationRun.objects.get()
        assert response.data["id"] == run.pk and response.data["status"] == "queued"
        assert response.data["urls"]["json"] == reverse("evaluation:run_json", args=[run.pk])
        assert run.config == {"k": 10, "p0": "prior", "min_count": None, "max_steps": 3000, "seed": 0}

    @pytest.mark.parametrize(
        ("body", "field"),
        [({"k": 0}, "k"), ({"k": "ten"}, "k"), ({"p0": "flat"}, "p0"), ({"max_steps": 10**9}, "max_steps"),
         ({"seed": -1}, "seed")],
    )
    def test_bad_input_is_a_400_and_stores_nothing(self, api, instructor, round_, body, field):
        api.force_authenticate(instructor)
        response = api.post(start_url(round_), body, format="json")
        assert response.status_code == 400 and field in response.data
        assert not EvaluationRun.objects.exists()

    def test_not_json_object_is_a_400(self, api, instructor, round_):
        api.force_authenticate(instructor)
        response = api.post(start_url(round_), "[1, 2]", content_type="application/json")
        assert response.status_code == 400

    def test_a_running_report_makes_a_409(self, api, instructor, round_):
        report_services.evaluation_start_round(round_=round_, user=instructor)
        api.force_authenticate(instructor)
        response = api.post(start_url(round_), {}, format="json")
        assert response.status_code == 409 and "already being computed" in response.data["detail"]

    @pytest.mark.parametrize("who", ["student", "crowdworker", "other_instructor"])
    def test_students_and_others_get_403(self, api, round_, who, request):
        api.force_authenticate(request.getfixturevalue(who))
        response = api.post(start_url(round_), {}, format="json")
        assert response.status_code == 403 and "instructors" in response.data["detail"]
        assert not EvaluationRun.objects.exists()

    def test_anonymous_and_unknown_round(self, api, instructor):
        assert api.post(reverse("evaluation_api:round_run_start", args=[1]), {}, format="json").status_code in (401, 403)
        api.force_authenticate(instructor)
        response = api.post(reverse("evaluation_api:round_run_start", args=[987654]), {}, format="json")
        assert response.status_code == 404 and response.data["detail"] == "This round does not exist."


class EvaluationRunReadApiTests:
    def test_detail_is_the_whole_report(self, api, instructor, artifact_round, small_config):
        run = report_services.evaluation_run(
            run_id=report_services.evaluation_start_round(round_=artifact_round, user=instructor, config=small_config).pk)
        api.force_authenticate(instructor)
        response = api.get(reverse("evaluation_api:run_detail", args=[run.pk]))
        assert response.status_code == 200
        assert response.data["status"] == "done" and set(response.data["sections"]) == {"overview", "codah", "lexical"}
        assert response.data["sections"]["codah"]["tables"]["categories"]["rows"][0] == ["idioms", 6, 0.5]

    def test_detail_is_forbidden_to_students(self, api, instructor, student, round_):
        run = report_services.evaluation_start_round(round_=round_, user=instructor)
        api.force_authenticate(student)
        assert api.get(reverse("evaluation_api:run_detail", args=[run.pk])).status_code == 403

    def test_list_is_paginated(self, api, instructor, round_):
        for _ in range(3):
            run = report_services.evaluation_start_round(round_=round_, user=instructor)
            EvaluationRun.objects.filter(pk=run.pk).update(status="done")
        api.force_authenticate(instructor)
        response = api.get(reverse("evaluation_api:round_run_list", args=[round_.pk]), {"page_size": 2})
        assert response.status_code == 200 and response.data["count"] == 3 and len(response.data["results"]) == 2
        assert response.data["results"][0]["display"]["status"] == "Done"

    def test_a_report_whose_worker_went_silent_is_listed_as_stalled(self, api, instructor, round_):
        run = report_services.evaluation_start_round(round_=round_, user=instructor)
        EvaluationRun.objects.filter(pk=run.pk).update(
            status="running", heartbeat_at=timezone.now() - timedelta(minutes=31), progress={"percent": 40.0})
        api.force_authenticate(instructor)
        listed = api.get(reverse("evaluation_api:round_run_list", args=[round_.pk])).data["results"][0]
        assert listed["stalled"] is True
        assert listed["display"]["progress"] == "stalled: no worker has reported for 31 minutes"


TABLE = {"columns": ["feature", "z", "note"], "rows": [["gladly", 3.5, None], ["=SUM(A1)", -1.0, "x"]]}


@pytest.fixture
def run(round_):
    return EvaluationRun.objects.create(target="round", round=round_, status="done",
                                        result={"lexical": {"tables": {"top_features": TABLE}}})


def url(run, section="lexical", table="top_features") -> str:
    return reverse("evaluation_api:run_table_csv", args=[run.pk, section, table])


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


class EvaluationRunTableCsvApiTests:
    def test_the_table_as_csv_like_the_page(self, instructor, run, client):
        response = client_of(instructor).get(url(run))
        assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
        assert response.content.decode() == "feature,z,note\ngladly,3.5,\n'=SUM(A1),-1.0,x\n"  # no formula runs
        client.force_login(instructor)
        page = client.get(reverse("evaluation:run_table_csv", args=[run.pk, "lexical", "top_features"]))
        assert page.content == response.content

    @pytest.mark.parametrize(("section", "table"), [("lexical", "weights"), ("accuracy", "top_features")])
    def test_a_missing_table_is_404(self, instructor, run, section, table):
        response = client_of(instructor).get(url(run, section, table))
        assert response.status_code == 404 and "has no table" in response.json()["detail"]

    @pytest.mark.parametrize("who", ["student", "other_instructor"])
    def test_others_get_403(self, run, who, request):
        assert client_of(request.getfixturevalue(who)).get(url(run)).status_code == 403


@pytest.fixture
def project(instructor):
    return span_project(instructor)


class ProjectApiTests:
    def test_start_list_and_detail(self, instructor, project, monkeypatch):
        monkeypatch.setattr(report_services, "evaluation_schedule", lambda *, run_id: None)
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
