"""Scoring runs, training jobs and the answer-only model over the API (nothing is trained here:
jobs are queued, and the queue only runs after the test's transaction, which never commits)."""
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from collector.models import ScoringRun, TrainingJob
from collector.services.questions import question_submit
from collector.services.rounds import round_create
from collector.tasks import answer_only_model_train_task
from collector.tests.factories import question_data
from courses.services import course_create

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


class ScoringApiTests:
    def test_start_list_and_read_a_run(self, instructor, graded_round):
        client = client_of(instructor)
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
        client = client_of(instructor)
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
        response = client_of(instructor).post(reverse("api:scoring_start", args=[graded_round.pk]), body, format="json")
        assert response.status_code == 400 and field in response.data
        assert not ScoringRun.objects.filter(status="queued").exists()

    @pytest.mark.parametrize("who", ["student", "other_instructor"])
    def test_others_get_403(self, graded_round, who, request):
        client = client_of(request.getfixturevalue(who))
        assert client.post(reverse("api:scoring_start", args=[graded_round.pk]), {}, format="json").status_code == 403
        run = ScoringRun.objects.get()
        assert client.get(reverse("api:scoring_run_detail", args=[run.pk])).status_code == 403
        assert client.get(reverse("api:scoring_run_list", args=[graded_round.pk])).status_code == 403
        assert ScoringRun.objects.count() == 1

    def test_a_missing_run_is_403_with_a_reason(self, instructor):
        response = client_of(instructor).get(reverse("api:scoring_run_detail", args=[987654]))
        assert response.status_code == 403 and response.data["detail"] == "This scoring run does not exist."


class TrainingApiTests:
    def test_start_list_and_read_a_job(self, instructor, graded_round, closed_round):
        client = client_of(instructor)
        response = client.post(reverse("api:training_start", args=[graded_round.pk]),
                               {"name": "after-r1", "make_live_round_id": closed_round.pk}, format="json")
        assert response.status_code == 201, response.data
        job = TrainingJob.objects.get()
        assert (job.name, job.make_live_round, job.status) == ("after-r1", closed_round, "queued")
        assert client.get(reverse("api:training_job_list", args=[graded_round.pk])).json()["count"] == 1
        detail = client.get(reverse("api:training_job_detail", args=[job.pk])).json()
        assert detail["make_live_round_id"] == closed_round.pk and detail["model_version"] is None

    @pytest.mark.parametrize(("body", "field"), [({}, "name"), ({"name": "bad name"}, "name"),
                                                 ({"name": "ok", "make_live_round_id": "x"}, "make_live_round_id")])
    def test_bad_input_is_400(self, instructor, graded_round, body, field):
        response = client_of(instructor).post(reverse("api:training_start", args=[graded_round.pk]), body,
                                              format="json")
        assert response.status_code == 400 and field in response.data, response.data
        assert not TrainingJob.objects.exists()

    def test_a_name_in_training_is_refused(self, instructor, graded_round):
        client = client_of(instructor)
        url = reverse("api:training_start", args=[graded_round.pk])
        assert client.post(url, {"name": "m1"}, format="json").status_code == 201
        again = client.post(url, {"name": "m1"}, format="json")
        assert again.status_code == 400 and "already being trained" in again.data["name"][0]

    def test_live_round_of_another_course_is_refused(self, instructor, other_instructor, graded_round):
        other = round_create(course=course_create(owner=other_instructor, name="B"), name="b1")
        response = client_of(instructor).post(reverse("api:training_start", args=[graded_round.pk]),
                                              {"name": "m2", "make_live_round_id": other.pk}, format="json")
        assert response.status_code == 403 and not TrainingJob.objects.exists()

    def test_students_get_403(self, student, graded_round):
        response = client_of(student).post(reverse("api:training_start", args=[graded_round.pk]), {"name": "m3"},
                                           format="json")
        assert response.status_code == 403 and not TrainingJob.objects.exists()


class AnswerOnlyModelTrainApiTests:
    def test_too_few_questions_is_a_400_with_the_reason(self, instructor, graded_round):
        response = client_of(instructor).post(reverse("api:answer_only_model_train", args=[graded_round.pk]))
        assert response.status_code == 400 and "at least 10" in response.data["non_field_errors"][0]

    def test_queued_with_enough_questions(self, instructor, student, round_, fake_model, django_capture_on_commit_callbacks,
                                          monkeypatch):

        for i in range(10):
            question_submit(user=student, round_id=round_.pk, **question_data(prompt=f"Question {i}. He"))
        queued = []
        monkeypatch.setattr(answer_only_model_train_task, "delay", queued.append)
        with django_capture_on_commit_callbacks(execute=True):
            response = client_of(instructor).post(reverse("api:answer_only_model_train", args=[round_.pk]))
        assert response.status_code == 202 and response.data["model_name"] == "r1-answer-only"
        assert queued == [round_.pk]

    def test_students_get_403(self, student, round_):
        assert client_of(student).post(reverse("api:answer_only_model_train", args=[round_.pk])).status_code == 403


@pytest.fixture
def empty_round(course):
    return round_create(course=course, name="empty")
