"""The project page's model-in-the-loop panel: no model yet, starting and following a training job, a checkpoint."""
import pytest
from django.urls import reverse

from annotation.models import QATrainingJob

pytestmark = pytest.mark.django_db


class ProjectPageTests:
    def test_without_a_model_the_page_says_so_and_how_to_add_one(self, client, owner, project):
        client.force_login(owner)
        html = client.get(reverse("annotation:project_dashboard", args=[project.pk])).content.decode()
        assert "No model is in the loop." in html
        assert "Train a QA model on this project's answered questions" in html and "Use a checkpoint" in html

    def test_starting_and_following_a_job(self, client, owner, project, train_paragraph, monkeypatch):
        monkeypatch.setattr("annotation.services.qa_models._enqueue", lambda job_id: None)
        client.force_login(owner)
        response = client.post(reverse("annotation:project_model_train", args=[project.pk]), {"name": "nile-qa"},
                               follow=True)
        job = QATrainingJob.objects.get()
        html = response.content.decode()
        assert "Training nile-qa" in html and 'data-active="true"' in html
        status = client.get(reverse("annotation:qa_training_job_status", args=[project.pk, job.pk])).json()
        assert status == {"id": job.pk, "name": "nile-qa", "status": "queued", "progress": {"stage": "queued"},
                          "error": "", "model_version": None}
        response = client.post(reverse("annotation:project_model_checkpoint", args=[project.pk]),
                               {"source": "/nowhere"}, follow=True)
        assert "The model in the loop did not change." in response.content.decode()
