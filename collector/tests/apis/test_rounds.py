"""``apis/rounds.py``: a course with its rounds, creating a round, the rounds open to write in, a round's page, question table and stats."""
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from collector.models import Round
from collector.services.questions import question_submit
from collector.tests.factories import api_client, question_data

pytestmark = pytest.mark.django_db




class CourseDetailApiTests:
    def test_instructor_sees_the_course_with_its_rounds(self, instructor, course, round_, closed_round, student):
        data = api_client(instructor).get(reverse("api:course_detail", args=[course.pk])).json()
        assert data["join_code"] == course.join_code and data["num_students"] == 1 and data["num_rounds"] == 2
        assert {r["name"]: r["is_open"] for r in data["rounds"]} == {"r1": True, "r0": False}
        assert data["rounds"][0]["num_questions"] == 0

    @pytest.mark.parametrize("who", ["student", "other_instructor"])
    def test_others_get_403(self, course, who, request):
        response = api_client(request.getfixturevalue(who)).get(reverse("api:course_detail", args=[course.pk]))
        assert response.status_code == 403

    def test_students_list_is_paginated(self, instructor, course, student, classmates):
        client = api_client(instructor)
        page = client.get(reverse("courses_api:course_students", args=[course.pk]), {"page_size": 2}).json()
        assert page["count"] == 4 and [s["username"] for s in page["results"]] == ["alice", "bob"]
        assert client.get(reverse("courses_api:course_students", args=[course.pk]), {"page": 9}).status_code == 404


class RoundCreateApiTests:
    def url(self, course) -> str:
        return reverse("api:round_create", args=[course.pk])

    def test_instructor_creates_a_round(self, instructor, course):
        body = {"name": "r2", "title": "Round two", "weight_cv": 2.5, "categories": ["idioms", "negation"],
                "closes_at": "2099-01-01T00:00:00Z"}
        response = api_client(instructor).post(self.url(course), body, format="json")
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
        response = api_client(instructor).post(self.url(course), body, format="json")
        assert response.status_code == 400 and field in response.data, response.data
        assert Round.objects.count() == 1

    def test_other_instructor_gets_403(self, other_instructor, course):
        response = api_client(other_instructor).post(self.url(course), {"name": "r5"}, format="json")
        assert response.status_code == 403 and not Round.objects.exists()


class RoundOpenListApiTests:
    def test_a_student_sees_the_open_rounds_of_their_courses(self, student, round_, closed_round, outsider):
        names = [r["name"] for r in api_client(student).get(reverse("api:round_open_list")).json()["results"]]
        assert names == ["r1"]
        assert api_client(outsider).get(reverse("api:round_open_list")).json()["results"] == []


class RoundDetailApiTests:
    def test_shows_settings_counts_and_jobs(self, instructor, graded_round):
        data = api_client(instructor).get(reverse("api:round_detail", args=[graded_round.pk])).json()
        assert data["name"] == "r1" and data["course"]["name"] == "NLP 101" and data["weight_cv"] == 2.0
        assert data["stats"]["questions"] == 4 and data["quality"]["validations_required"] == 2
        assert [run["kind"] for run in data["scoring_runs"]] == ["cross_validation"]
        assert data["training_jobs"] == []

    @pytest.mark.parametrize("who", ["student", "other_instructor"])
    def test_others_get_403(self, round_, who, request):
        response = api_client(request.getfixturevalue(who)).get(reverse("api:round_detail", args=[round_.pk]))
        assert response.status_code == 403 and response.data["detail"] == "Only the course's instructors can open this page."


class RoundQuestionListApiTests:
    def test_filters_and_credit(self, instructor, graded_round, student):
        client = api_client(instructor)
        url = reverse("api:round_questions", args=[graded_round.pk])
        everything = client.get(url).json()
        assert everything["count"] == 4
        fooled = client.get(url, {"fooled": "true"}).json()["results"]
        assert {q["prompt"] for q in fooled} == {"Alice one. She", "Bob one. He", "Prof tries. He"}
        alice = client.get(url, {"author_id": student.pk, "q": "two"}).json()["results"]
        assert [(q["author"], q["fooled_cv"], q["credit"]) for q in alice] == [("alice", 0.5, 1.0)]
        assert alice[0]["prediction"]["predicted"] == 3

    @pytest.mark.parametrize("query", [{"fooled": "maybe"}, {"category": "astrology"}, {"author_id": "x"}])
    def test_bad_filters_are_400(self, instructor, round_, query):
        response = api_client(instructor).get(reverse("api:round_questions", args=[round_.pk]), query)
        assert response.status_code == 400 and set(query) <= set(response.data)


def url(round_) -> str:
    return reverse("api:round_stats", args=[round_.pk])


@pytest.mark.django_db
class RoundStatsApiTests:
    def test_manager_gets_the_stats(self, instructor, student, round_, fake_model):
        question_submit(user=student, round_id=round_.pk, **question_data(categories=["idioms"]))
        client = APIClient()
        client.force_login(instructor)
        response = client.get(url(round_))
        assert response.status_code == 200
        assert response.data["questions"] == 1 and response.data["authors"] == 1
        assert response.data["fooling_rate_live"] == 1.0
        assert response.data["categories"]["idioms"] == 1

    def test_empty_round_has_no_fooling_rate(self, instructor, round_):
        client = APIClient()
        client.force_login(instructor)
        assert client.get(url(round_)).data["fooling_rate_live"] is None

    @pytest.mark.parametrize("who", ["student", "other_instructor"])
    def test_non_managers_get_403_with_message(self, round_, who, request):
        client = APIClient()
        client.force_login(request.getfixturevalue(who))
        response = client.get(url(round_))
        assert response.status_code == 403
        assert response.data["detail"] == "Only the course's instructors can open this page."
