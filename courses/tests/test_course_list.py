"""``courses/views.py``'s course list at ``courses:course_list``: an instructor's courses with their join codes, creating one."""
import pytest
from django.urls import reverse

from courses.models import Course
from courses.panels import course_page_url

COURSES_URL = reverse("courses:course_list")


def course_url(course) -> str:
    return course_page_url(course)


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
