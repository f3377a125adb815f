"""``apis/quality.py``: the round's quality report over the API."""
import pytest
from django.urls import reverse

from collector.tests.factories import api_client

pytestmark = pytest.mark.django_db




def test_quality_report_for_instructors_only(submitted, instructor, student):
    url = reverse("api:round_quality", args=[submitted.round_id])
    response = api_client(instructor).get(url)
    assert response.status_code == 200 and response.data["status"]["pending"] == 1
    assert {"human_accuracy", "answer_agreement", "category_agreement", "validators", "coach"} <= set(response.data)
    assert api_client(student).get(url).status_code == 403
