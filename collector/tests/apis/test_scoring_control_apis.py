from unittest import mock

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from collector.models import ScoringRun

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


class ScoringRunCancelResumeApiTests:
    def test_cancel_then_resume(self, instructor, round_):
        run = ScoringRun.objects.create(round=round_, status="queued", base_checkpoint="x")
        api = client_of(instructor)
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
        response = client_of(instructor).post(reverse("api:scoring_run_resume", args=[cancelled.pk]))
        assert response.status_code == 409 and "is in progress" in response.json()["detail"]

    def test_other_instructors_are_refused(self, other_instructor, round_):
        run = ScoringRun.objects.create(round=round_, status="running", base_checkpoint="x")
        assert client_of(other_instructor).post(reverse("api:scoring_run_cancel", args=[run.pk])).status_code == 403
        assert ScoringRun.objects.get(pk=run.pk).status == "running"
