"""``apis/duplicates.py``: a round's near-duplicate pairs over the API."""
import pytest
from django.urls import reverse

from collector.services.questions import question_submit
from collector.tests.factories import api_client, question_data

pytestmark = pytest.mark.django_db




class RoundDuplicatesApiTests:
    def test_lists_near_duplicate_pairs(self, instructor, student, round_, fake_model):
        first = question_submit(user=student, round_id=round_.pk, **question_data())
        second = question_submit(user=student, round_id=round_.pk,
                                          **question_data(prompt="The man ate the whole pizza by himself! He"))
        url = reverse("api:round_duplicates", args=[round_.pk])
        pairs = api_client(instructor).get(url).json()["results"]
        assert [{pairs[0]["a"]["id"], pairs[0]["b"]["id"]}] == [{first.pk, second.pk}]
        assert api_client(instructor).get(url, {"threshold": 0}).status_code == 400
