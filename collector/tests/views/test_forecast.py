"""``views/forecast.py`` and the round page's survival forecast panel (issue 29 §1)."""
from unittest import mock

import pytest
from django.utils import timezone

from collector.models import SurvivalForecastJob
from collector.tests.factories import round_page_url

pytestmark = pytest.mark.django_db


def test_the_button_queues_one_training_and_the_page_follows_it(client, instructor, round_,
                                                                django_capture_on_commit_callbacks):
    client.force_login(instructor)
    with mock.patch("collector.tasks.forecast_job_run_task.delay") as delay, \
            django_capture_on_commit_callbacks(execute=True):
        response = client.post(round_page_url("round_forecast_train", round_), follow=True)
    job = SurvivalForecastJob.objects.get()
    delay.assert_called_once_with(job.pk)
    assert (job.course, job.round, job.created_by, job.status) == (round_.course, round_, instructor, "queued")
    page = response.content.decode()
    assert 'id="survival-forecast"' in page and f'data-job-id="{job.pk}"' in page
    assert 'data-job="collector.survivalforecastjob"' in page and f"/ws/rounds/{round_.pk}/scoring/" in page
    assert "Waiting for a worker to start it." in page


def test_a_finished_forecast_shows_its_quality(client, instructor, round_):
    SurvivalForecastJob.objects.create(
        course=round_.course, round=round_, status="done", finished_at=timezone.now(), n_train=321, usable=True,
        params={"feature_names": []}, brier=0.152, brier_base=0.211, auc=0.74, calibration_slope=0.97)
    client.force_login(instructor)
    page = client.get(round_page_url("round_detail", round_)).content.decode()
    assert "321" in page and "0.152" in page and "0.211" in page and "0.97" in page
    assert "authors see the forecast" in page


@pytest.mark.parametrize("method", ["get", "post"])
def test_only_the_courses_instructors_may_train(client, student, other_instructor, round_, method):
    for user in (student, other_instructor):
        client.force_login(user)
        response = getattr(client, method)(round_page_url("round_forecast_train", round_))
        assert response.status_code in (403, 405)
    assert not SurvivalForecastJob.objects.exists()
