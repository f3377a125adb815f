"""``courses/apis.py``: the user's courses and creating one over the API."""
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from courses.models import Course
from courses.services import course_create

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


class CourseListApiTests:
    def test_each_sees_their_courses_with_their_role(self, instructor, other_instructor, student, course, round_):
        course_create(owner=other_instructor, name="Other course")
        mine = client_of(instructor).get(reverse("courses_api:course_list")).json()
        assert [c["name"] for c in mine["results"]] == ["NLP 101"]
        row = mine["results"][0]
        assert row["role"] == "instructor" and row["join_code"] == course.join_code
        assert (row["num_students"], row["num_rounds"]) == (1, 1)
        theirs = client_of(student).get(reverse("courses_api:course_list")).json()["results"]
        assert [(c["name"], c["role"], c["join_code"]) for c in theirs] == [("NLP 101", "student", None)]
        assert theirs[0]["num_students"] == 1  # counted over the whole course, not only this student

    def test_anonymous_gets_401(self):
        assert APIClient().get(reverse("courses_api:course_list")).status_code == 401


class CourseCreateApiTests:
    def test_instructor_creates_a_course(self, instructor):
        response = client_of(instructor).post(reverse("courses_api:course_create"), {"name": "  Semantics  ", "join_code": "sem1"},
                                              format="json")
        assert response.status_code == 201, response.data
        assert response.data["name"] == "Semantics" and response.data["join_code"] == "SEM1"
        assert Course.objects.get().instructors.filter(pk=instructor.pk).exists()

    def test_missing_name_and_taken_code_are_400(self, instructor, course):
        client = client_of(instructor)
        assert "name" in client.post(reverse("courses_api:course_create"), {}, format="json").data
        taken = client.post(reverse("courses_api:course_create"), {"name": "B", "join_code": course.join_code}, format="json")
        assert taken.status_code == 400 and "join_code" in taken.data
        assert Course.objects.count() == 1

    def test_students_may_not(self, student):
        response = client_of(student).post(reverse("courses_api:course_create"), {"name": "Mine"}, format="json")
        assert response.status_code == 403 and "instructors" in response.data["detail"]
        assert not Course.objects.filter(name="Mine").exists()
