"""``views/quality.py`` (and ``views/coach.py``): the round's quality report and training the coach's answer-only model from it."""
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from collector.models import TrainingJob
from collector.tests.factories import validate

pytestmark = pytest.mark.django_db


class QualityPageTests:
    def test_report_with_vega_lite_charts_and_their_tables(self, client, submitted, classmates, instructor):
        validate(submitted, classmates[0], 0)
        validate(submitted, classmates[1], 0)
        client.force_login(instructor)
        page = client.get(reverse("collector:round_quality", args=[submitted.round_id])).content.decode()
        assert page.count('class="vl-chart"') == 2  # accuracy and workload; no coach warnings yet
        assert "Human accuracy per category (95% Wilson interval)" in page
        assert '<th scope="row">All questions</th><td class="num">100.0%</td>' in page  # the table beside it
        assert "vendor/vega-embed/vega-embed.min.js" in page
        assert "no answer-only model yet" in page

    def test_settings_are_shown_and_changed_on_the_round_settings_page(self, client, peer_round, instructor):
        client.force_login(instructor)
        page = client.get(reverse("collector:round_quality", args=[peer_round.pk])).content.decode()
        assert "2 agreeing validators accept a question" in page
        assert reverse("collector:round_settings", args=[peer_round.pk]) + "#quality-settings" in page
        assert 'name="validations_required"' not in page
        assert client.post(reverse("collector:round_quality", args=[peer_round.pk])).status_code == 405

    def test_training_the_answer_only_model_is_queued_or_explained(self, client, submitted, instructor,
                                                                   django_capture_on_commit_callbacks):
        client.force_login(instructor)
        url = reverse("collector:round_answer_only_model", args=[submitted.round_id])
        response = client.post(url, follow=True)
        assert "needs at least 10" in response.content.decode()
        with mock.patch("collector.services.coach.answer_only_model_check"), \
                mock.patch("collector.tasks.answer_only_job_run_task.delay") as delay, \
                django_capture_on_commit_callbacks(execute=True):
            response = client.post(url, follow=True)
        assert "is queued" in response.content.decode()
        job = TrainingJob.objects.get(round_id=submitted.round_id, kind=TrainingJob.Kind.ANSWER_ONLY)
        delay.assert_called_once_with(job.pk)
        assert job.status == TrainingJob.Status.QUEUED and job.created_by == instructor

    def test_round_page_shows_the_answer_only_job_with_the_training_jobs(self, client, submitted, instructor):
        running = TrainingJob.objects.create(
            round_id=submitted.round_id, kind=TrainingJob.Kind.ANSWER_ONLY, name="r1-answer-only",
            status=TrainingJob.Status.RUNNING, heartbeat_at=timezone.now(),
            progress={"stage": "training", "step": 3, "total_steps": 12, "epoch": 1})
        failed = TrainingJob.objects.create(
            round_id=submitted.round_id, kind=TrainingJob.Kind.ANSWER_ONLY, name="r1-answer-only",
            status=TrainingJob.Status.FAILED, error="RuntimeError: out of memory on the worker")
        client.force_login(instructor)
        page = client.get(reverse("collector:round_detail", args=[submitted.round_id])).content.decode()
        assert f'data-job="{running.pk}"' in page and f'data-job="{failed.pk}"' in page
        assert "Epoch 1 · step 3/12" in page and 'aria-valuenow="25"' in page
        assert "RuntimeError: out of memory on the worker" in page

    def test_quality_page_follows_the_answer_only_job_with_the_shared_progress_card(self, client, submitted,
                                                                                   instructor):
        client.force_login(instructor)
        url = reverse("collector:round_quality", args=[submitted.round_id])
        assert "data-job-progress" not in client.get(url).content.decode()  # no job yet: no card
        job = TrainingJob.objects.create(
            round_id=submitted.round_id, kind=TrainingJob.Kind.ANSWER_ONLY, name="r1-answer-only",
            status=TrainingJob.Status.RUNNING, heartbeat_at=timezone.now(),
            progress={"stage": "training", "step": 6, "total_steps": 12, "epoch": 1})
        page = client.get(url).content.decode()
        assert f'id="job-progress-{job.pk}"' in page and 'data-job="collector.trainingjob"' in page
        assert f'data-socket-path="/ws/rounds/{submitted.round_id}/scoring/"' in page
        assert 'data-refresh="answer-only-model"' in page and "Epoch 1 · step 6/12" in page
        assert "js/job_progress.js" in page

    def test_round_page_links_here_and_shows_statuses(self, client, submitted, instructor):
        client.force_login(instructor)
        page = client.get(reverse("collector:round_detail", args=[submitted.round_id])).content.decode()
        assert reverse("collector:round_quality", args=[submitted.round_id]) in page
        assert "Awaiting validation" in page
