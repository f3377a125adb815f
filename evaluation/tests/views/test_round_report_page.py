"""The round's evaluation page, starting a report from it, and the downloads."""
import csv
import io
import json

import pytest
from django.urls import reverse

from evaluation.models import EvaluationRun
from evaluation.services import reports as services

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_run(artifact_round, instructor, small_config):
    run = services.evaluation_start_round(round_=artifact_round, user=instructor, config=small_config)
    return services.evaluation_run(run_id=run.pk)


def login(client, user):
    client.force_login(user)
    return client


class RoundReportPageTests:
    def test_empty_state_and_start_form(self, client, instructor, round_):
        response = login(client, instructor).get(reverse("evaluation:round_report", args=[round_.pk]))
        assert response.status_code == 200
        page = response.content.decode()
        assert "No finished report yet." in page and "Compute a new report" in page
        assert 'name="k"' in page and 'name="p0"' in page and "No reports yet." in page

    @pytest.mark.parametrize("who", ["student", "crowdworker", "other_instructor", "outsider"])
    def test_only_the_course_instructors_may_see_or_start(self, client, round_, who, request, instructor, small_config):
        user = request.getfixturevalue(who)
        run = services.evaluation_start_round(round_=round_, user=instructor, config=small_config)
        login(client, user)
        urls = [reverse("evaluation:round_report", args=[round_.pk]), reverse("evaluation:run_detail", args=[run.pk]),
                reverse("evaluation:run_json", args=[run.pk]),
                reverse("evaluation:run_table_csv", args=[run.pk, "codah", "categories"])]
        for url in urls:
            response = client.get(url)
            assert response.status_code == 403, url
            assert "instructors" in response.content.decode()
        assert client.post(reverse("evaluation:round_report_start", args=[round_.pk])).status_code == 403
        assert EvaluationRun.objects.count() == 1

    def test_anonymous_is_sent_to_sign_in(self, client, round_):
        response = client.get(reverse("evaluation:round_report", args=[round_.pk]))
        assert response.status_code == 302 and reverse("accounts:login") in response["Location"]

    def test_staff_may_see_every_report(self, client, staff, round_):
        assert login(client, staff).get(reverse("evaluation:round_report", args=[round_.pk])).status_code == 200

    def test_start_runs_the_report_and_shows_it(self, client, instructor, artifact_round, django_capture_on_commit_callbacks):
        login(client, instructor)
        with django_capture_on_commit_callbacks(execute=True):  # Celery is eager in tests: the report runs now
            response = client.post(reverse("evaluation:round_report_start", args=[artifact_round.pk]),
                                   {"k": "5", "p0": "uniform", "min_count": "", "max_steps": "20", "seed": "0"})
        assert response.status_code == 302
        run = EvaluationRun.objects.get()
        assert run.status == EvaluationRun.Status.DONE and run.config["max_steps"] == 20
        page = client.get(response["Location"]).content.decode()
        assert f"Report {run.pk} queued" in page
        for text in ("CODAH-style results", "Lexical artifacts", "Questions per category", 'class="vl-chart"', "Download CSV",
                     "Human accuracy: not yet measured", "Download the whole report (JSON)", f"Report {run.pk}</a>",
                     # the headline p-value says which test it is; the unstratified one is labelled as such
                     "Permutation test p, stratified by gold label", "Stratified by gold label (exact test",
                     "unstratified (Serrano et al. §3, assumes equal chance per slot)", "Per gold label"):
            assert text in page, text

    def test_invalid_settings_are_reported_and_nothing_starts(self, client, instructor, round_):
        login(client, instructor)
        response = client.post(reverse("evaluation:round_report_start", args=[round_.pk]),
                               {"k": "0", "p0": "uniform", "max_steps": "x", "seed": "0"}, follow=True)
        page = response.content.decode()
        assert "Report not started." in page and "Top features per label" in page and "Reweighting: Adam steps" in page
        assert not EvaluationRun.objects.exists()

    def test_second_start_while_running_is_refused(self, client, instructor, round_):
        services.evaluation_start_round(round_=round_, user=instructor)
        login(client, instructor)
        response = client.post(reverse("evaluation:round_report_start", args=[round_.pk]),
                               {"k": "5", "p0": "uniform", "max_steps": "10", "seed": "0"}, follow=True)
        page = response.content.decode()
        assert "already being computed" in page and 'id="evaluation-progress"' in page
        assert "/ws/evaluation/runs/" in page and EvaluationRun.objects.count() == 1

    def test_failed_report_is_explained(self, client, instructor, round_):
        run = services.evaluation_start_round(round_=round_, user=instructor)
        EvaluationRun.objects.filter(pk=run.pk).update(status="failed", error="RuntimeError: disk full")
        page = login(client, instructor).get(reverse("evaluation:round_report", args=[round_.pk])).content.decode()
        assert "failed: RuntimeError: disk full" in page

    def test_history_is_paginated(self, client, instructor, round_):
        for _ in range(12):
            run = services.evaluation_start_round(round_=round_, user=instructor)
            EvaluationRun.objects.filter(pk=run.pk).update(status="failed")
        login(client, instructor)
        first = client.get(reverse("evaluation:round_report", args=[round_.pk])).content.decode()
        second = client.get(reverse("evaluation:round_report", args=[round_.pk]) + "?page=2").content.decode()
        assert "Page 1 of 2" in first and first.count("badge badge-status status-failed") == 10
        assert second.count("badge badge-status status-failed") == 2


class DownloadTests:
    def test_every_table_downloads_as_csv(self, client, instructor, finished_run):
        login(client, instructor)
        for section_name, section in finished_run.result.items():
            for table_name, table in section["tables"].items():
                response = client.get(reverse("evaluation:run_table_csv", args=[finished_run.pk, section_name, table_name]))
                assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
                parsed = list(csv.reader(io.StringIO(response.content.decode())))
                assert parsed[0] == table["columns"] and len(parsed) == len(table["rows"]) + 1

    def test_csv_cells(self, client, instructor, finished_run):
        response = login(client, instructor).get(
            reverse("evaluation:run_table_csv", args=[finished_run.pk, "codah", "categories"]))
        assert response.content.decode().splitlines() == [
            "category,questions,share", "idioms,6,0.5", "negation,4,0.3333", "other,2,0.1667"]
        assert "attachment" in response["Content-Disposition"]

    def test_unknown_table_is_404(self, client, instructor, finished_run):
        login(client, instructor)
        for args in ([finished_run.pk, "codah", "nope"], [finished_run.pk, "nope", "categories"]):
            assert client.get(reverse("evaluation:run_table_csv", args=args)).status_code == 404
        assert client.get(reverse("evaluation:run_detail", args=[999999])).status_code == 403

    def test_whole_report_as_json(self, client, instructor, finished_run):
        response = login(client, instructor).get(reverse("evaluation:run_json", args=[finished_run.pk]))
        data = json.loads(response.content)
        assert data["id"] == finished_run.pk and data["status"] == "done" and data["round"] == "r1"
        assert data["snapshot_digest"] == finished_run.snapshot_digest and data["sections"] == finished_run.result
        assert data["config"]["k"] == 5

    def test_run_page_of_an_older_report(self, client, instructor, finished_run):
        page = login(client, instructor).get(reverse("evaluation:run_detail", args=[finished_run.pk])).content.decode()
        assert "Evaluation report" in page and "Label balance of the selected features" in page
        assert "Showing the first 25 of 48 rows" in page  # the weights table is previewed


def test_the_round_page_links_to_its_evaluation_report(client, instructor, round_):
    client.force_login(instructor)
    page = client.get(reverse("collector:round_detail", args=[round_.pk])).content.decode()
    assert reverse("evaluation:round_report", args=[round_.pk]) in page
