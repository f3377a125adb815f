"""A worker's home page: the task list, and starting a paragraph from it."""
import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


class TaskListPageTests:
    def test_empty_task_list_says_so(self, client, crowdworker):
        client.force_login(crowdworker)
        assert "There are no annotation projects yet" in client.get(reverse("annotation:task_list")).content.decode()

    def test_task_list_start_and_the_annotation_page(self, client, crowdworker, fa_project, fa_paragraph):
        client.force_login(crowdworker)
        client.cookies["django_language"] = "en"  # the worker chose English for the Persian project
        page = client.get(reverse("annotation:task_list")).content.decode()
        assert fa_project.name in page and "1 paragraph" in page
        response = client.post(reverse("annotation:task_start", args=[fa_project.pk, "authoring"]))
        session = fa_paragraph.sessions.get()
        assert response.url == reverse("annotation:session", args=[session.pk])
        html = client.get(response.url).content.decode()
        assert 'id="paragraph" class="paragraph" dir="rtl" lang="fa"' in html
        assert 'id="session-data"' in html and '<script type="module" src="/static/js/annotation.js">' in html
        assert "Continue writing questions" in client.get(reverse("annotation:task_list")).content.decode()

    def test_nothing_left_redirects_with_a_message(self, client, crowdworker, project):
        client.force_login(crowdworker)
        response = client.post(reverse("annotation:task_start", args=[project.pk, "authoring"]), follow=True)
        assert "Nothing left to do" in response.content.decode()
