"""The leaderboard pages and downloads: the table, chart, live model and vMER, sorting, the evaluate
form, failures; students are refused."""
import json

import pytest
from django.urls import reverse

from evaluation.models.leaderboards import ModelEvaluation
from evaluation.services import leaderboards as leaderboard_services
from evaluation.tests.factories import finished_report, model_evaluation_finished


@pytest.mark.django_db
class LeaderboardPageTests:
    def test_page_shows_table_chart_live_model_and_vmer(self, client, instructor, live_round, tiny_model_version,
                                                        second_version):
        model_evaluation_finished(tiny_model_version, live_round)
        model_evaluation_finished(second_version, live_round)
        client.force_login(instructor)
        page = client.get(reverse("evaluation:round_leaderboard", args=[live_round.pk]))
        html = page.content.decode()
        assert page.status_code == 200
        assert 'class="vl-figure" id="leaderboard-chart"' in html and f"{tiny_model_version.name} (live)" in html
        assert 'id="leaderboard-table"' in html and 'aria-sort="none"' in html and 'id="vmer-table"' in html
        assert "3/6 = 0.500" in html

    def test_the_evaluate_form_offers_no_other_courses_model(self, client, instructor, live_round, other_course):
        from modelhub.services import model_version_register

        model_version_register(name="vision-after-r1", kind="multiple_choice", path="/m/b", course_id=other_course.pk)
        model_version_register(name="nlp-after-r1", kind="multiple_choice", path="/m/a", course_id=live_round.course_id)
        client.force_login(instructor)
        html = client.get(reverse("evaluation:round_leaderboard", args=[live_round.pk])).content.decode()
        assert "nlp-after-r1" in html and "vision-after-r1" not in html

    def test_sorting_by_a_column_is_a_link_and_sets_aria_sort(self, client, instructor, live_round,
                                                              tiny_model_version, second_version):
        model_evaluation_finished(tiny_model_version, live_round)
        model_evaluation_finished(second_version, live_round)
        client.force_login(instructor)
        url = reverse("evaluation:round_leaderboard", args=[live_round.pk])
        asc = client.get(url + "?sort=model&dir=asc").context["table"]
        desc = client.get(url + "?sort=model&dir=desc").context["table"]
        assert [r[0] for r in asc["rows"]] == sorted([tiny_model_version.name, second_version.name])
        assert [r[0] for r in desc["rows"]] == list(reversed([r[0] for r in asc["rows"]]))
        header = asc["headers"][0]
        assert header["aria_sort"] == "ascending" and header["query"] == "?sort=model&dir=desc"

    def test_evaluate_form_queues_and_reports_bad_input(self, client, instructor, round_, tiny_model_version):
        client.force_login(instructor)
        url = reverse("evaluation:round_leaderboard_evaluate", args=[round_.pk])
        response = client.post(url, {"model_version": tiny_model_version.pk}, follow=True)
        assert "no accepted questions yet" in response.content.decode()
        response = client.post(url, {"model_version": "x"}, follow=True)
        assert "Choose a model version" in response.content.decode()
        assert not ModelEvaluation.objects.exists()

    def test_failed_evaluation_is_shown_with_its_message(self, client, instructor, board_round, broken_version):
        model_evaluation_finished(broken_version, board_round)
        client.force_login(instructor)
        html = client.get(reverse("evaluation:round_leaderboard", args=[board_round.pk])).content.decode()
        assert "missing-weights could not be loaded" in html and "No model evaluated yet" in html

    def test_a_running_evaluation_is_followed_on_its_own_socket_not_a_finished_reports(
            self, client, instructor, board_round, tiny_model_version, monkeypatch):
        # A report of the round finished earlier: its socket says "done" at once. The leaderboard once
        # opened /ws/evaluation/runs/<evaluation id>/ (that report's), saw "done" and reloaded 2.5 times a second.
        report = finished_report(instructor, round_=board_round)
        monkeypatch.setattr(leaderboard_services, "model_evaluation_schedule", lambda **kw: None)
        evaluation = leaderboard_services.model_evaluation_start(model_version=tiny_model_version, round_=board_round)
        client.force_login(instructor)
        html = client.get(reverse("evaluation:round_leaderboard", args=[board_round.pk])).content.decode()
        assert report.status == "done" and evaluation.status == "queued"
        assert f'data-socket-path="/ws/evaluation/model-evaluations/{evaluation.pk}/"' in html
        assert f'data-job="evaluation.modelevaluation" data-job-id="{evaluation.pk}" data-status="queued"' in html
        assert "/ws/evaluation/runs/" not in html and f"Evaluation of {tiny_model_version.name}" in html

    def test_downloads(self, client, instructor, live_round, tiny_model_version):
        evaluation = model_evaluation_finished(tiny_model_version, live_round)
        client.force_login(instructor)
        board = json.loads(client.get(reverse("evaluation:round_leaderboard_json", args=[live_round.pk])).content)
        assert board["entries"][0]["id"] == evaluation.pk
        full = json.loads(client.get(reverse("evaluation:model_evaluation_json", args=[evaluation.pk])).content)
        assert full["snapshot_id"] == evaluation.snapshot_id and len(full["result"]["predictions"]) == 5
        response = client.get(reverse("evaluation:round_leaderboard_csv", args=[live_round.pk]))
        assert response["Content-Disposition"].endswith('.csv"')

    def test_students_get_403(self, client, student, board_round):
        client.force_login(student)
        assert client.get(reverse("evaluation:round_leaderboard", args=[board_round.pk])).status_code == 403
