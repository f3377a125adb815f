import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from collector.services.questions import question_submit
from collector.services.rounds import round_create
from collector.tests.factories import question_data
from courses.services import course_join

URL = reverse("api:question_list")


@pytest.mark.django_db
class QuestionListApiTests:
    def test_lists_own_questions_with_predictions(self, student, outsider, round_, course, fake_model):
        question_submit(user=student, round_id=round_.pk, **question_data(correct_index=0))
        course_join(user=outsider, join_code=course.join_code)
        question_submit(user=outsider, round_id=round_.pk, **question_data(prompt="Not yours. It"))
        client = APIClient()
        client.force_login(student)
        response = client.get(URL)
        assert response.status_code == 200
        assert response.data["count"] == 1
        item = response.data["results"][0]
        assert item["prompt"] == question_data()["prompt"]
        assert item["round_name"] == round_.name
        assert item["prediction"]["fooled"] is True and item["credit"] == 1.0

    def test_paginated_and_filtered_by_round(self, student, round_, course, fake_model):
        other = round_create(course=course, name="r2")
        for i in range(30):
            question_submit(user=student, round_id=round_.pk, **question_data(prompt=f"Prompt {i}. He"))
        question_submit(user=student, round_id=other.pk, **question_data())
        client = APIClient()
        client.force_login(student)
        first = client.get(URL)
        assert first.data["count"] == 31 and len(first.data["results"]) == 25 and first.data["next"]
        assert client.get(URL, {"round_id": other.pk}).data["count"] == 1
        assert client.get(URL, {"round_id": "x"}).status_code == 400
        assert client.get(URL, {"round_id": 10**30}).status_code == 400
        assert client.get(URL, {"page": 99}).status_code == 404

    def test_anonymous_is_rejected(self, db):
        assert APIClient().get(URL).status_code in (401, 403)
