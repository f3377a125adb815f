"""``apis/scoring.py``: scoring runs over the API: start, list, read, cancel, resume (nothing is trained here: runs are queued, and the queue only runs after the test's transaction)."""
from unittest import mock

import pytest
from django.urls import reverse

from collector.models import ScoringRun
from collector.services.rounds import round_create
from collector.tests.factories import api_client

pytestmark = pytest.mark.django_db




class ScoringApiTests:
    def test_start_list_and_read_a_run(self, instructor, graded_round):
        client = api_client(instructor)
        response = client.post(reverse("api:scoring_start", args=[graded_round.pk]),
                               {"kind": "answer_only", "folds": 2, "trials": 1}, format="json")
        assert response.status_code == 201, response.data
        run = ScoringRun.objects.get(pk=response.data["id"])
        assert (run.kind, run.status, run.folds, run.created_by) == ("answer_only", "queued", 2, instructor)
        assert response.data["display"]["progress"] == "Waiting for a worker to start it."
        listed = client.get(reverse("api:scoring_run_list", args=[graded_round.pk])).json()
        assert [r["id"] for r in listed["results"]][0] == run.pk and listed["count"] == 2  # and the finished CV run
        detail = client.get(reverse("api:scoring_run_detail", args=[run.pk])).json()
        assert detail["questions"] == 4 and detail["config"]["answer_only"] is True

    def test_a_second_start_and_too_few_questions_are_409(self, instructor, graded_round, empty_round):
        client = api_client(instructor)
        url = reverse("api:scoring_start", args=[graded_round.pk])
        assert client.post(url, {"folds": 2}, format="json").status_code == 201
        again = client.post(url, {"folds": 2}, format="json")
        assert again.status_code == 409 and "already in progress" in again.data["detail"]
        empty = client.post(reverse("api:scoring_start", args=[empty_round.pk]), {}, format="json")
        assert empty.status_code == 409 and "needs at least 5" in empty.data["detail"]
        assert ScoringRun.objects.filter(status="queued").count() == 1

    @pytest.mark.parametrize(("body", "field"), [({"folds": 1}, "folds"), ({"folds": 21}, "folds"),
                                                 ({"trials": 0}, "trials"), ({"kind": "everything"}, "kind")])
    def test_bad_input_is_400(self, instructor, graded_round, body, field):
        response = api_client(instructor).post(reverse("api:scoring_start", args=[graded_round.pk]), body, format="json")
        assert response.status_code == 400 and field in response.data
        assert not ScoringRun.objects.filter(status="queued").exists()

    @pytest.mark.parametrize("who", ["student", "other_instructor"])
    def test_others_get_403(self, graded_round, who, request):
        client = api_client(request.getfixturevalue(who))
        assert client.post(reverse("api:scoring_start", args=[graded_round.pk]), {}, format="json").status_code == 403
        run = ScoringRun.objects.get()
        assert client.get(reverse("api:scoring_run_detail", args=[run.pk])).status_code == 403
        assert client.get(reverse("api:scoring_run_list", args=[graded_round.pk])).status_code == 403
        assert ScoringRun.objects.count() == 1

    def test_a_missing_run_is_404_with_a_reason(self, instructor):
        response = api_client(instructor).get(reverse("api:scoring_run_detail", args=[987654]))
        assert response.status_code == 404 and response.data["detail"] == "This scoring run does not exist."


@pytest.fixture
def empty_round(course):
    return round_create(course=course, name="empty")




class ScoringRunCancelResumeApiTests:
    def test_cancel_then_resume(self, instructor, round_):
        run = ScoringRun.objects.create(round=round_, status="queued", base_checkpoint="x")
        api = api_client(instructor)
        response = api.post(reverse("api:scoring_run_cancel", args=[run.pk]))
        assert response.status_code == 200 and response.json()["status"] == "cancelled"
        assert response.json()["display"]["status"] == "Cancelled"
        assert api.post(reverse("api:scoring_run_cancel", args=[run.pk])).status_code == 409
        with mock.patch("collector.services.scoring.scoring_schedule"):
            response = api.post(reverse("api:scoring_run_resume", args=[run.pk]))
        assert response.status_code == 200 and response.json()["status"] == "queued"

    def test_resume_is_refused_while_another_run_of_its_kind_is_active(self, instructor, round_):
        cancelled = ScoringRun.objects.create(round=round_, status="cancelled", base_checkpoint="x")
        ScoringRun.objects.create(round=round_, status="running", base_checkpoint="x")
        response = api_client(instructor).post(reverse("api:scoring_run_resume", args=[cancelled.pk]))
        assert response.status_code == 409 and "is in progress" in response.json()["detail"]

    def test_other_instructors_are_refused(self, other_instructor, round_):
        run = ScoringRun.objects.create(round=round_, status="running", base_checkpoint="x")
        assert api_client(other_instructor).post(reverse("api:scoring_run_cancel", args=[run.pk])).status_code == 403
        assert ScoringRun.objects.get(pk=run.pk).status == "running"
