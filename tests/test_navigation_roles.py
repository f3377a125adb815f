"""Navigation by role: each role's menu holds its own pages only, and a crowdworker who types in
a student page's address gets a 403 page that says where their tasks are."""
import html
import re

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.tests.factories import PASSWORD
from collector.tests.factories import make_user


@pytest.mark.django_db
class HomeTests:
    """``core.views.home``: each role goes to the start page its app registered (``core.registry``)."""

    def test_anonymous_goes_to_login(self, client):
        response = client.get(reverse("home"))
        assert response.status_code == 302
        assert response.url == reverse("accounts:login")

    def test_student_goes_to_dashboard(self, client):
        client.force_login(make_user("alice"))
        assert client.get(reverse("home")).url == reverse("collector:dashboard")

    @pytest.mark.parametrize("who", [{"role": User.Role.INSTRUCTOR}, {"is_staff": True}])
    def test_instructor_and_staff_go_to_the_inbox(self, client, who):
        client.force_login(make_user("prof", **who))
        assert client.get(reverse("home")).url == reverse("inbox:inbox")

    def test_crowdworker_goes_to_annotation_tasks(self, client):
        client.force_login(make_user("cw", role=User.Role.CROWDWORKER))
        response = client.get(reverse("home"), follow=True)
        assert [url for url, _ in response.redirect_chain] == [reverse("annotation:task_list")]
        assert "Annotation tasks" in response.content.decode()

    def test_the_old_crowd_address_still_leads_to_the_tasks(self, client):
        client.force_login(make_user("cw", role=User.Role.CROWDWORKER))
        assert client.get("/crowd/").url == reverse("annotation:task_list")

    def test_signing_in_leads_a_student_to_the_dashboard(self, client):
        make_user("bob")
        response = client.post(reverse("accounts:login"), {"username": "bob", "password": PASSWORD}, follow=True)
        assert [url for url, _ in response.redirect_chain] == [reverse("home"), reverse("collector:dashboard")]


def nav_links(client) -> dict[str, str]:
    """``{label: href}`` of the main navigation on the user's start page."""
    page = client.get(reverse("home"), follow=True).content.decode()
    nav = page.split('aria-label="Main"', 1)[1].split("</nav>", 1)[0]
    return {html.unescape(label).strip(): href for href, label in re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', nav)}


@pytest.mark.django_db
class NavigationByRoleTests:
    def test_student_sees_dashboard_and_validate_only(self, client):
        client.force_login(make_user("alice"))
        links = nav_links(client)
        assert links["Dashboard"] == reverse("collector:dashboard")
        assert links["Validate"] == reverse("collector:validate")
        assert not {"Courses", "Annotation", "Tasks", "My questions"} & set(links)

    def test_instructor_does_not_see_my_questions(self, client):
        client.force_login(make_user("prof", role=User.Role.INSTRUCTOR))
        links = nav_links(client)
        assert {"Courses", "Validate", "Annotation"} <= set(links)
        assert "My questions" not in links and "Dashboard" not in links
        assert reverse("collector:dashboard") not in links.values()

    def test_crowdworker_sees_tasks_and_no_student_pages(self, client):
        client.force_login(make_user("cw", role=User.Role.CROWDWORKER))
        links = nav_links(client)
        assert links["Tasks"] == reverse("annotation:task_list")
        assert not {reverse("collector:dashboard"), reverse("collector:validate")} & set(links.values())

    def test_crowdworker_home_is_the_task_list(self, client):
        client.force_login(make_user("cw", role=User.Role.CROWDWORKER))
        response = client.get(reverse("home"), follow=True)
        assert response.redirect_chain[-1][0] == reverse("annotation:task_list")

    @pytest.mark.parametrize("name", ["collector:dashboard", "collector:validate"])
    def test_crowdworker_typing_a_student_page_gets_a_clear_403(self, client, name):
        client.force_login(make_user("cw", role=User.Role.CROWDWORKER))
        response = client.get(reverse(name))
        assert response.status_code == 403
        page = html.unescape(response.content.decode())
        assert "This page is for students of a course" in page
        assert "Tasks page" in page and f'href="{reverse("home")}"' in page

    @pytest.mark.parametrize("name", ["collector:dashboard", "collector:validate"])
    def test_students_still_open_their_pages(self, client, name):
        client.force_login(make_user("alice"))
        assert client.get(reverse(name)).status_code == 200
