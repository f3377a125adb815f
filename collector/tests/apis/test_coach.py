"""``apis/coach.py``: queueing the coach's answer-only model over the API."""
import pytest
from django.urls import reverse

from collector.models import TrainingJob
from collector.services.questions import question_submit
from collector.tasks import answer_only_job_run_task
from collector.tests.factories import api_client, question_data

pytestmark = pytest.mark.django_db




class AnswerOnlyModelTrainApiTests:
    def test_too_few_questions_is_a_400_with_the_reason(self, instructor, graded_round):
        response = api_client(instructor).post(reverse("api:answer_only_model_train", args=[graded_round.pk]))
        assert response.status_code == 400 and "at least 10" in response.data["non_field_errors"][0]

    def test_queued_with_enough_questions(self, instructor, student, round_, fake_model, django_capture_on_commit_callbacks,
                                          monkeypatch):

        for i in range(10):
            question_submit(user=student, round_id=round_.pk, **question_data(prompt=f"Question {i}. He"))
        queued = []
        monkeypatch.setattr(answer_only_job_run_task, "delay", queued.append)
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client(instructor).post(reverse("api:answer_only_model_train", args=[round_.pk]))
        assert response.status_code == 202 and response.data["model_name"] == "r1-answer-only"
        job = TrainingJob.objects.get(pk=response.data["job_id"])
        assert job.kind == TrainingJob.Kind.ANSWER_ONLY and job.round == round_ and queued == [job.pk]
        detail = api_client(instructor).get(reverse("api:training_job_detail", args=[job.pk]))
        assert detail.status_code == 200 and detail.data["kind"] == "answer_only" and detail.data["status"] == "queued"

    def test_students_get_403(self, student, round_):
        assert api_client(student).post(reverse("api:answer_only_model_train", args=[round_.pk])).status_code == 403
