"""The teaching staff on the course page and its own page (``courses/staff_views.py``), and the
instructor invite link's page."""
import html

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.tests.factories import make_user
from courses.models import StaffRole
from courses.panels import course_page_url
from courses.presentation import STAFF_ROLE_POWERS
from courses.selectors import user_manages_course
from courses.services import course_instructor_invite_renew, course_staff_add

PASSWORD = "a-long-test-password-42"
pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def test_the_course_page_lists_the_staff_with_what_each_role_may_do_and_a_form(client, course, instructor):
    make_user("tara")
    course_staff_add(course=course, who="tara", role=StaffRole.TA)
    client.force_login(instructor)
    page = text(client.get(course_page_url(course)))
    section = page.split('data-testid="course-staff"', 1)[1].split("</section>", 1)[0]
    assert "prof" in section and "tara" in section and "Teaching assistant" in section
    for words in STAFF_ROLE_POWERS.values():
        assert words in section
    assert f'action="{reverse("courses:course_staff", args=[course.pk])}"' in section
    assert 'name="who"' in section and 'value="ta"' in section and 'value="instructor"' in section
    assert "Create an instructor invite link" in section


def test_adding_a_co_instructor_from_the_form_lets_them_manage_the_course(client, course, instructor):
    colleague = make_user("colleague", role=User.Role.CROWDWORKER)
    client.force_login(instructor)
    response = client.post(reverse("courses:course_staff", args=[course.pk]),
                           {"who": "colleague", "role": "instructor"}, follow=True)
    assert "colleague is now a co-instructor of NLP 101." in text(response)
    colleague.refresh_from_db()
    assert colleague.is_instructor
    client.force_login(colleague)
    assert client.get(course_page_url(course)).status_code == 200
    assert client.get(reverse("courses:course_list")).status_code == 200


def test_a_refused_addition_says_why_beside_the_field_and_keeps_the_input(client, course, instructor, student):
    client.force_login(instructor)
    response = client.post(reverse("courses:course_staff", args=[course.pk]), {"who": "alice", "role": "ta"})
    page = text(response)
    assert "Nobody was added" in page and "alice is a student of this course" in page
    assert 'value="alice"' in page and 'id="staff-errors"' in page
    assert not course.teaching_assistants.exists()


def test_removing_and_the_invite_link_buttons(client, course, instructor):
    colleague = make_user("colleague", role=User.Role.INSTRUCTOR)
    course_staff_add(course=course, who="colleague", role=StaffRole.INSTRUCTOR)
    client.force_login(instructor)
    client.post(reverse("courses:course_staff_remove", args=[course.pk, colleague.pk]))
    assert not user_manages_course(user=colleague, course=course)
    refused = client.post(reverse("courses:course_staff_remove", args=[course.pk, instructor.pk]), follow=True)
    assert "owner stays" in text(refused) and user_manages_course(user=instructor, course=course)
    client.post(reverse("courses:instructor_invite", args=[course.pk]), {"action": "renew"})
    course.refresh_from_db()
    link = reverse("courses:instructor_invite_join", args=[course.instructor_invite_token])
    assert link in text(client.get(reverse("courses:course_staff", args=[course.pk])))
    client.post(reverse("courses:instructor_invite", args=[course.pk]), {"action": "revoke"})
    course.refresh_from_db()
    assert course.instructor_invite_token is None
    assert client.get(link).status_code == 404


def test_only_the_courses_instructors_manage_its_staff(client, course, student, other_instructor):
    ta = make_user("tara")
    course_staff_add(course=course, who="tara", role=StaffRole.TA)
    for user in (student, other_instructor, ta):
        client.force_login(user)
        assert client.get(reverse("courses:course_staff", args=[course.pk])).status_code == 403
        assert client.post(reverse("courses:course_staff", args=[course.pk]),
                           {"who": user.username, "role": "instructor"}).status_code == 403
    assert not course.instructors.filter(pk__in=[student.pk, other_instructor.pk, ta.pk]).exists()


def test_someone_new_opens_the_link_makes_an_instructor_account_and_teaches(client, course):
    token = course_instructor_invite_renew(course=course).instructor_invite_token
    url = reverse("courses:instructor_invite_join", args=[token])
    page = text(client.get(url))
    assert "Teach NLP 101" in page and "Make my account and join" in page and "join_code" not in page
    response = client.post(url, {"username": "newprof", "email": "", "password1": PASSWORD, "password2": PASSWORD},
                           follow=True)
    assert response.redirect_chain[-1][0] == course_page_url(course)
    newprof = User.objects.get(username="newprof")
    assert newprof.is_instructor and user_manages_course(user=newprof, course=course)


def test_a_signed_in_instructor_joins_with_one_button_and_a_student_is_told_why_not(client, course, other_course,
                                                                                   student):
    token = course_instructor_invite_renew(course=other_course).instructor_invite_token
    url = reverse("courses:instructor_invite_join", args=[token])
    colleague = make_user("colleague", role=User.Role.INSTRUCTOR)
    client.force_login(colleague)
    assert "Become a co-instructor" in text(client.get(url))
    client.post(url)
    assert user_manages_course(user=colleague, course=other_course)
    client.force_login(student)
    refused = client.get(url)
    assert refused.status_code == 403 and "would lose its student dashboard" in text(refused)
    assert client.post(url).status_code == 403
    assert not user_manages_course(user=student, course=other_course)


def test_a_mistyped_link_says_so(client):
    response = client.get(reverse("courses:instructor_invite_join", args=["not-a-token"]))
    assert response.status_code == 404 and "does not work" in text(response)
