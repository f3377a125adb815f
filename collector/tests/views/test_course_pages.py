import html

import pytest
from django.urls import reverse

from collector.models import Round
from courses.models import Course

COURSES_URL = reverse("collector:course_list")


def course_url(course) -> str:
    return reverse("collector:course_detail", args=[course.pk])


@pytest.mark.django_db
class CourseListPageTests:
    def test_instructor_sees_courses_with_join_codes(self, client, instructor, course, student):
        client.force_login(instructor)
        response = client.get(COURSES_URL)
        assert response.status_code == 200
        page = response.content.decode()
        assert "NLP 101" in page and course.join_code in page
        assert response.context["courses"][0].num_students == 1

    def test_other_instructors_courses_are_not_listed(self, client, other_instructor, course):
        client.force_login(other_instructor)
        page = client.get(COURSES_URL).content.decode()
        assert course.join_code not in page
        assert "You have no courses yet" in page

    def test_student_gets_403(self, client, student):
        client.force_login(student)
        response = client.get(COURSES_URL)
        assert response.status_code == 403
        assert "Only instructors" in response.content.decode()

    def test_anonymous_is_sent_to_login(self, client):
        assert client.get(COURSES_URL).status_code == 302

    def test_create_course(self, client, instructor):
        client.force_login(instructor)
        response = client.post(COURSES_URL, {"name": "  Commonsense 2  "}, follow=True)
        course = Course.objects.get()
        assert course.name == "Commonsense 2" and course.owner == instructor
        assert response.redirect_chain[-1][0] == course_url(course)
        assert course.join_code in response.content.decode()

    def test_create_course_with_blank_name_is_explained(self, client, instructor):
        client.force_login(instructor)
        response = client.post(COURSES_URL, {"name": "   "})
        assert response.status_code == 200
        assert response.context["form"].errors["name"]
        assert Course.objects.count() == 0

    def test_student_cannot_create_course(self, client, student):
        client.force_login(student)
        count = Course.objects.count()
        assert client.post(COURSES_URL, {"name": "Mine"}).status_code == 403
        assert Course.objects.count() == count


@pytest.mark.django_db
class CourseDetailPageTests:
    def test_owner_sees_students_and_rounds(self, client, instructor, course, round_, student):
        client.force_login(instructor)
        page = client.get(course_url(course)).content.decode()
        assert "alice" in page and "Round one" in page and course.join_code in page

    def test_staff_may_open_any_course(self, client, staff, course):
        client.force_login(staff)
        assert client.get(course_url(course)).status_code == 200

    @pytest.mark.parametrize("who", ["other_instructor", "student"])
    def test_others_get_403(self, client, course, who, request):
        client.force_login(request.getfixturevalue(who))
        response = client.get(course_url(course))
        assert response.status_code == 403
        assert "Only the course's instructors" in html.unescape(response.content.decode())

    def test_create_round(self, client, instructor, course):
        client.force_login(instructor)
        data = {
            "name": "fall-r1", "title": "Round 1", "instructions": "Be tricky.",
            "opens_at": "2020-01-01T09:00", "closes_at": "2099-01-01T17:30",
            "weight_live": "1.5", "weight_cv": "0.5", "categories": ["idioms", "negation"],
        }
        response = client.post(course_url(course), data)
        round_ = Round.objects.get(name="fall-r1")
        assert response.status_code == 302 and response.url == reverse("collector:round_detail", args=[round_.pk])
        assert round_.categories == ["idioms", "negation"] and round_.weight_live == 1.5
        assert round_.opens_at.hour == 9 and round_.is_open()
        assert round_.live_model is not None

    @pytest.mark.parametrize(
        ("overrides", "field"),
        [
            ({"name": "has spaces"}, "name"),
            ({"name": ""}, "name"),
            ({"opens_at": "2030-01-02T00:00", "closes_at": "2030-01-01T00:00"}, "closes_at"),
            ({"opens_at": "yesterday"}, "opens_at"),
            ({"weight_live": "-1"}, "weight_live"),
            ({"categories": []}, "categories"),
        ],
    )
    def test_bad_round_input_is_explained(self, client, instructor, course, overrides, field):
        client.force_login(instructor)
        data = {"name": "r-ok", "weight_live": "1", "weight_cv": "1", "categories": ["other"], **overrides}
        response = client.post(course_url(course), data)
        assert response.status_code == 200
        assert response.context["form"].errors[field]
        assert Round.objects.count() == 0

    def test_duplicate_round_name_is_explained(self, client, instructor, course, round_):
        client.force_login(instructor)
        data = {"name": round_.name, "weight_live": "1", "weight_cv": "1", "categories": ["other"]}
        response = client.post(course_url(course), data)
        assert response.status_code == 200
        assert response.context["form"].errors["name"]
        assert Round.objects.count() == 1
