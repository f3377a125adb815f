"""The report pages of a round and a project: who may see and start reports, what the page shows
(newest report first, the start form folded, plain column names with formulas, one number format
per kind, charts with tables), and the downloads."""
import csv
import io
import json
import re

import pytest
from django.urls import reverse

from evaluation.models import EvaluationRun
from evaluation.reports.ambiguity import retrieval_section, selectional_section
from evaluation.services import ambiguity as ambiguity_services
from evaluation.services import reports as report_services
from evaluation.tests.ambiguity_data import retrieval_result, selectional_probe
from evaluation.tests.factories import finished_report, span_project

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_run(artifact_round, instructor, small_config):
    run = report_services.evaluation_start_round(round_=artifact_round, user=instructor, config=small_config)
    return report_services.evaluation_run(run_id=run.pk)


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
        run = report_services.evaluation_start_round(round_=round_, user=instructor, config=small_config)
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
        report_services.evaluation_start_round(round_=round_, user=instructor)
        login(client, instructor)
        response = client.post(reverse("evaluation:round_report_start", args=[round_.pk]),
                               {"k": "5", "p0": "uniform", "max_steps": "10", "seed": "0"}, follow=True)
        page = response.content.decode()
        run = EvaluationRun.objects.get()
        assert "already being computed" in page and f'id="job-progress-{run.pk}"' in page
        assert f'data-socket-path="/ws/evaluation/runs/{run.pk}/"' in page and 'data-job="evaluation.evaluationrun"' in page

    def test_failed_report_is_explained(self, client, instructor, round_):
        run = report_services.evaluation_start_round(round_=round_, user=instructor)
        EvaluationRun.objects.filter(pk=run.pk).update(status="failed", error="RuntimeError: disk full")
        page = login(client, instructor).get(reverse("evaluation:round_report", args=[round_.pk])).content.decode()
        assert "failed: RuntimeError: disk full" in page

    def test_history_is_paginated(self, client, instructor, round_):
        for _ in range(12):
            run = report_services.evaluation_start_round(round_=round_, user=instructor)
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
        assert client.get(reverse("evaluation:run_detail", args=[999999])).status_code == 404

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


@pytest.fixture
def project(instructor):
    return span_project(instructor)


@pytest.fixture
def finished(project, instructor, monkeypatch):
    from evaluation.services import ambiguity as ambiguity_services

    monkeypatch.setattr(ambiguity_services, "ambiguity_selectional_section", lambda **kw: None)
    monkeypatch.setattr(ambiguity_services, "ambiguity_retrieval_section", lambda **kw: None)
    run = report_services.evaluation_start_project(project=project, user=instructor, config={"k": 5, "max_steps": 20})
    return report_services.evaluation_run(run_id=run.pk)


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
        monkeypatch.setattr(report_services, "evaluation_schedule", lambda *, run_id: None)
        client.force_login(instructor)
        response = client.post(reverse("evaluation:project_report_start", args=[project.pk]),
                               {"k": "5", "p0": "prior", "max_steps": "10", "seed": "1"}, follow=True)
        run = EvaluationRun.objects.get()
        assert run.project == project and run.config["p0"] == "prior" and run.status == "queued"
        assert f"Report {run.pk} queued" in response.content.decode()

    def test_unknown_project(self, client, instructor):
        client.force_login(instructor)
        response = client.get(reverse("evaluation:project_report", args=[98765]))
        assert response.status_code == 404 and "no such annotation project" in response.content.decode()


@pytest.fixture
def page(client, artifact_round, instructor, small_config):
    for _ in range(2):
        run = report_services.evaluation_start_round(round_=artifact_round, user=instructor, config=small_config)
        report_services.evaluation_run(run_id=run.pk)
    client.force_login(instructor)
    return client.get(reverse("evaluation:round_report", args=[artifact_round.pk])).content.decode(), run


def test_newest_report_first_and_the_form_folded(page):
    html, newest = page
    assert f"Report {newest.pk} · finished" in html
    form = html.index('<details class="card new-report">')  # no "open": folded away
    assert form < html.index('id="section-overview"') < html.index('id="history-heading"')
    history = re.findall(r'>Report (\d+)</a>', html)
    assert history == sorted(history, key=int, reverse=True) and history[0] == str(newest.pk)


def test_plain_names_with_formulas_and_one_format_per_kind(page):
    html, _ = page
    assert '<span class="tip" title="LB_q(w) = (1/|Y|) Σ_y |q(y|w) − q(y)| with the learned weights q">' \
           'Label balance, reweighted</span>' in html
    assert '<span class="tip" title="instances containing the feature that have this label">' in html
    for raw in (">lb_uniform<", ">count_with_label<", ">live_model_accuracy<", ">p_display<"):
        assert raw not in html
    assert "<dd>50.0%</dd>" in html  # cross-validation accuracy, a percent with one decimal
    assert re.search(r"<dd>\d\.\de-\d+: a result this extreme would be rare by chance alone", html)  # SPEC rule, in words
    assert html.count('<p class="meaning">') == 3
    assert "the completions alone give answers away" in html


def test_the_ambiguity_probes_columns_too(client, instructor, monkeypatch):
    """The project report's ambiguity tables name their columns as the lexical ones do, formulas in tooltips."""
    monkeypatch.setattr(ambiguity_services, "ambiguity_selectional_section",
                        lambda **kw: selectional_section(selectional_probe(64, 69), source="R16"))
    monkeypatch.setattr(ambiguity_services, "ambiguity_retrieval_section",
                        lambda **kw: retrieval_section(retrieval_result(reader=True), source="three jobs"))
    project = span_project(instructor)
    finished_report(instructor, project=project)
    client.force_login(instructor)
    html = client.get(reverse("evaluation:project_report", args=[project.pk])).content.decode()
    assert '<span class="tip" title="Recall(g) = found / gold names">Recall</span>' in html
    assert '<span class="tip" title="D(occ) = count_occ(female) − count_occ(male), in [−k, k]; positive: more ' \
           'women">Disparity D</span>' in html
    assert '<span class="tip" title="D*(occ) = count_f − π·(count_f + count_m)">Women beyond baseline (D*)</span>' \
           in html
    for raw in (">gold names<", ">ci95_low<", ">D_excess<"):
        assert raw not in html
    assert "<td>64.0%</td>" in html and "women are 33.3%" in html  # percent with one decimal
    assert re.search(r"<strong>p = \d\.\de-?\d+</strong>", html)  # SPEC display rule


def test_charts_come_with_their_specs_tables_and_downloads(page):
    html, _ = page
    specs = re.findall(r'<script id="(chart-[\w-]+)-spec" type="application/json">(.*?)</script>', html, re.S)
    # (jsonb on PostgreSQL keeps a section's charts in its own key order)
    assert sorted(name for name, _ in specs) == ["chart-codah-accuracy", "chart-codah-categories",
                                                 "chart-lexical-label_balance"]
    for _, text in specs:
        spec = json.loads(text)
        assert spec["title"]["text"] and spec["layer"][0]["encoding"]["tooltip"]
    assert html.count('class="vl-table') == 3 and html.count('download="chart-') == 6
    assert "vendor/vega/vega.min.js" in html and '<script type="module" src="/static/js/charts.js">' in html
