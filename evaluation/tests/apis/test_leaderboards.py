"""The leaderboard API: start an evaluation, the round's and project's boards, CSV, vMER; who may see them."""
import csv
import io

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from evaluation.models.leaderboards import ModelEvaluation
from evaluation.services import leaderboards as leaderboard_services
from evaluation.tests.factories import model_evaluation_finished
from modelhub.models import ModelVersion


@pytest.fixture
def api():
    return APIClient()


@pytest.mark.django_db
class LeaderboardApiTests:
    def test_start_evaluates_and_the_leaderboard_lists_it_with_the_live_model_marked(
            self, api, instructor, live_round, tiny_model_version, second_version, django_capture_on_commit_callbacks):
        api.force_authenticate(instructor)
        url = reverse("evaluation_api:round_model_evaluation_start", args=[live_round.pk])
        with django_capture_on_commit_callbacks(execute=True):
            response = api.post(url, {"model_version": tiny_model_version.pk}, format="json")
        assert response.status_code == 201, response.data
        assert response.data["status"] == "queued" and response.data["is_live_model"] is True
        again = api.post(url, {"model_version": tiny_model_version.pk}, format="json")
        assert again.status_code == 200 and again.data["id"] == response.data["id"]  # same data: no new job
        model_evaluation_finished(second_version, live_round)

        board = api.get(reverse("evaluation_api:round_leaderboard", args=[live_round.pk])).data
        assert board["live_model"] == tiny_model_version.name and board["active"] == []
        names = {e["model_version"]["name"]: e for e in board["entries"]}
        assert set(names) == {tiny_model_version.name, second_version.name}
        assert names[tiny_model_version.name]["is_live_model"] and not names[second_version.name]["is_live_model"]
        assert all(e["on_current_data"] and e["snapshot_id"] == board["current_snapshot_id"] for e in board["entries"])
        assert "predictions" not in names[tiny_model_version.name]["result"]

        detail = api.get(reverse("evaluation_api:model_evaluation_detail", args=[response.data["id"]])).data
        assert detail["question_ids"] == [p["question_id"] for p in detail["result"]["predictions"]]
        assert len(detail["question_ids"]) == 5 and detail["status"] == "done"

    def test_csv_has_one_row_per_model_with_categories(self, api, instructor, live_round, tiny_model_version):
        evaluation = model_evaluation_finished(tiny_model_version, live_round)
        api.force_authenticate(instructor)
        response = api.get(reverse("evaluation_api:round_leaderboard_csv", args=[live_round.pk]))
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert len(rows) == 1 and rows[0]["model"] == tiny_model_version.name and rows[0]["live_model"] == "True"
        assert float(rows[0]["accuracy"]) == evaluation.result["accuracy"]["value"]
        assert {"accuracy_idioms", "accuracy_negation"} <= set(rows[0])

    def test_bad_input_is_a_clear_400_and_stores_nothing(self, api, instructor, live_round, round_):
        api.force_authenticate(instructor)
        url = reverse("evaluation_api:round_model_evaluation_start", args=[live_round.pk])
        assert api.post(url, {"model_version": 99999}, format="json").data == {
            "model_version": ["There is no such model version."]}
        assert api.post(url, {}, format="json").status_code == 400
        qa = ModelVersion.objects.create(name="qa", kind="question_answering", path="/nowhere")
        response = api.post(url, {"model_version": qa.pk}, format="json")
        assert response.status_code == 400 and "multiple-choice model" in str(response.data)
        assert not ModelEvaluation.objects.exists()

    def test_another_courses_model_cannot_be_evaluated_here(self, api, instructor, live_round, other_course):
        theirs = ModelVersion.objects.create(name="vision-after-r1", kind="multiple_choice", path="/m/b",
                                             course=other_course)
        api.force_authenticate(instructor)
        url = reverse("evaluation_api:round_model_evaluation_start", args=[live_round.pk])
        assert api.post(url, {"model_version": theirs.pk}, format="json").data == {
            "model_version": ["There is no such model version."]}  # as for a model that does not exist
        assert not ModelEvaluation.objects.exists()

    def test_only_the_courses_instructors_see_it(self, api, student, other_instructor, live_round, course):
        for user in (student, other_instructor):
            api.force_authenticate(user)
            assert api.get(reverse("evaluation_api:round_leaderboard", args=[live_round.pk])).status_code == 403
            assert api.get(reverse("evaluation_api:course_vmer", args=[course.pk])).status_code == 403

    def test_course_vmer_api(self, api, instructor, board_round, course):
        api.force_authenticate(instructor)
        data = api.get(reverse("evaluation_api:course_vmer", args=[course.pk])).data
        assert [p["round"] for p in data["rounds"]] == ["r1"]
        assert data["rounds"][0]["vmer"]["k"] == 3 and data["rounds"][0]["vmer"]["n"] == 6
        assert 0 < data["rounds"][0]["vmer"]["low"] < 0.5 < data["rounds"][0]["vmer"]["high"] < 1

    def test_project_leaderboard(self, api, instructor, test_split_project, qa_model_version):
        api.force_authenticate(instructor)
        url = reverse("evaluation_api:project_model_evaluation_start", args=[test_split_project.pk])
        created = api.post(url, {"model_version": qa_model_version.pk}, format="json")
        assert created.status_code == 201
        leaderboard_services.model_evaluation_run(evaluation_id=created.data["id"])
        board = api.get(reverse("evaluation_api:project_leaderboard", args=[test_split_project.pk])).data
        entry = board["entries"][0]
        assert board["metric"] == "exact match (EM)" and entry["result"]["has_ans"]["n"] == 2
        rows = list(csv.DictReader(io.StringIO(api.get(
            reverse("evaluation_api:project_leaderboard_csv", args=[test_split_project.pk])).content.decode())))
        assert rows[0]["model"] == qa_model_version.name and "no_ans_f1" in rows[0]


@pytest.mark.django_db
def test_an_entry_on_older_data_is_marked_after_a_question_is_accepted(api, instructor, live_round, tiny_model_version):
    from collector.models import Question

    evaluation = model_evaluation_finished(tiny_model_version, live_round)
    api.force_authenticate(instructor)
    url = reverse("evaluation_api:round_leaderboard", args=[live_round.pk])
    assert api.get(url).data["entries"][0]["on_current_data"] is True
    Question.objects.filter(round=live_round, status="pending").update(status="accepted")
    board = api.get(url).data
    assert board["entries"][0]["id"] == evaluation.pk and board["entries"][0]["on_current_data"] is False
    assert board["current_snapshot_id"] != evaluation.snapshot_id
