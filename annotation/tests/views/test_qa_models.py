"""The project page's model-in-the-loop panel: no model yet, starting and following a training job, a checkpoint."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from annotation.models import QATrainingJob

pytestmark = pytest.mark.django_db


class ProjectPageTests:
    def test_a_job_whose_worker_went_silent_is_shown_stalled(self, client, owner, project):
        silent_since = timezone.now() - timedelta(minutes=15)
        job = QATrainingJob.objects.create(project=project, name="nile-qa", status="running", started_at=silent_since,
                                           heartbeat_at=silent_since, progress={"step": 2, "total_steps": 9})
        client.force_login(owner)
        html = client.get(reverse("annotation:project_dashboard", args=[project.pk])).content.decode()
        assert "stalled: no worker has reported for 15 minutes" in html
        status = client.get(reverse("annotation:qa_training_job_status", args=[project.pk, job.pk])).json()
        assert status["stalled"] is True
        assert status["display"]["stalled"] == "stalled: no worker has reported for 15 minutes"

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
        socket = f"/ws/annotation/projects/{project.pk}/training/{job.pk}/"
        assert "Training nile-qa" in html and f'data-socket-path="{socket}"' in html and 'data-status="queued"' in html
        assert 'data-refresh="model-loop"' in html and "js/job_progress.js" in html  # no HTTP polling script
        status = client.get(reverse("annotation:qa_training_job_status", args=[project.pk, job.pk])).json()
        assert status == {"id": job.pk, "job": "annotation.qatrainingjob", "name": "nile-qa", "status": "queued",
                          "progress": {"stage": "queued"}, "error": "", "stalled": False,
                          "display": {"status": "Queued", "state": "queued", "percent": 0.0, "result": "",
                                      "progress": "Waiting for a worker to start it.", "stalled": ""},
                          "model_version": None, "urls": {"socket": socket}}
        response = client.post(reverse("annotation:project_model_checkpoint", args=[project.pk]),
                               {"source": "/nowhere"}, follow=True)
        assert "The model in the loop did not change." in response.content.decode()
