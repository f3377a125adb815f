"""Courses over the API: the user's courses, creating courses and rounds, a course's students,
the rounds open to write in."""
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from collector.models import Round
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
        mine = client_of(instructor).get(reverse("api:course_list")).json()
        assert [c["name"] for c in mine["results"]] == ["NLP 101"]
        row = mine["results"][0]
        assert row["role"] == "instructor" and row["join_code"] == course.join_code
        assert (row["num_students"], row["num_rounds"]) == (1, 1)
        theirs = client_of(student).get(reverse("api:course_list")).json()["results"]
        assert [(c["name"], c["role"], c["join_code"]) for c in theirs] == [("NLP 101", "student", None)]
        assert theirs[0]["num_students"] == 1  # counted over the whole course, not only this student

    def test_anonymous_gets_401(self):
        assert APIClient().get(reverse("api:course_list")).status_code == 401


class CourseCreateApiTests:
    def test_instructor_creates_a_course(self, instructor):
        response = client_of(instructor).post(reverse("api:course_create"), {"name": "  Semantics  ", "join_code": "sem1"},
                                              format="json")
        assert response.status_code == 201, response.data
        assert response.data["name"] == "Semantics" and response.data["join_code"] == "SEM1"
        assert Course.objects.get().instructors.filter(pk=instructor.pk).exists()

    def test_missing_name_and_taken_code_are_400(self, instructor, course):
        client = client_of(instructor)
        assert "name" in client.post(reverse("api:course_create"), {}, format="json").data
        taken = client.post(reverse("api:course_create"), {"name": "B", "join_code": course.join_code}, format="json")
        assert taken.status_code == 400 and "join_code" in taken.data
        assert Course.objects.count() == 1

    def test_students_may_not(self, student):
        response = client_of(student).post(reverse("api:course_create"), {"name": "Mine"}, format="json")
        assert response.status_code == 403 and "instructors" in response.data["detail"]
        assert not Course.objects.filter(name="Mine").exists()


class CourseDetailApiTests:
    def test_instructor_sees_the_course_with_its_rounds(self, instructor, course, round_, closed_round, student):
        data = client_of(instructor).get(reverse("api:course_detail", args=[course.pk])).json()
        assert data["join_code"] == course.join_code and data["num_students"] == 1 and data["num_rounds"] == 2
        assert {r["name"]: r["is_open"] for r in data["rounds"]} == {"r1": True, "r0": False}
        assert data["rounds"][0]["num_questions"] == 0

    @pytest.mark.parametrize("who", ["student", "other_instructor"])
    def test_others_get_403(self, course, who, request):
        response = client_of(request.getfixturevalue(who)).get(reverse("api:course_detail", args=[course.pk]))
        assert response.status_code == 403

    def test_students_list_is_paginated(self, instructor, course, student, classmates):
        client = client_of(instructor)
        page = client.get(reverse("api:course_students", args=[course.pk]), {"page_size": 2}).json()
        assert page["count"] == 4 and [s["username"] for s in page["results"]] == ["alice", "bob"]
        assert client.get(reverse("api:course_students", args=[course.pk]), {"page": 9}).status_code == 404


class RoundCreateApiTests:
    def url(self, course) -> str:
        return reverse("api:round_create", args=[course.pk])

    def test_instructor_creates_a_round(self, instructor, course):
        body = {"name": "r2", "title": "Round two", "weight_cv": 2.5, "categories": ["idioms", "negation"],
                "closes_at": "2099-01-01T00:00:00Z"}
        response = client_of(instructor).post(self.url(course), body, format="json")
        assert response.status_code == 201, response.data
        round_ = Round.objects.get(name="r2")
        assert (round_.weight_cv, round_.categories, round_.live_model.name) == (2.5, ["idioms", "negation"],
                                                                                "v0-minilm-zero-shot")
        assert response.data["is_open"] is True

    @pytest.mark.parametrize(
        ("body", "field"),
        [({}, "name"), ({"name": "has space"}, "name"), ({"name": "r9", "weight_live": -1}, "weight_live"),
         ({"name": "r9", "categories": ["astrology"]}, "categories"), ({"name": "r9", "live_model": 999}, "live_model"),
         ({"name": "r9", "opens_at": "2030-01-02T00:00:00Z", "closes_at": "2030-01-01T00:00:00Z"}, "closes_at"),
         ({"name": "r1"}, "name")],
    )
    def test_bad_input_is_a_400_with_the_field(self, instructor, course, round_, body, field):
        response = client_of(instructor).post(self.url(course), body, format="json")
        assert response.status_code == 400 and field in response.data, response.data
        assert Round.objects.count() == 1

    def test_other_instructor_gets_403(self, other_instructor, course):
        response = client_of(other_instructor).post(self.url(course), {"name": "r5"}, format="json")
        assert response.status_code == 403 and not Round.objects.exists()


class RoundOpenListApiTests:
    def test_a_student_sees_the_open_rounds_of_their_courses(self, student, round_, closed_round, outsider):
        names = [r["name"] for r in client_of(student).get(reverse("api:round_open_list")).json()["results"]]
        assert names == ["r1"]
        assert client_of(outsider).get(reverse("api:round_open_list")).json()["results"] == []
