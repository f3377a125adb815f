"""A worker's home page: the task list, and starting a paragraph from it."""
import pytest
from django.urls import reverse

from annotation.services.authoring import session_start_next
from annotation.tests.factories import EN_CONTEXT, FA_CONTEXT, add_paragraphs, make_project

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


class TaskListLanguageOrderTests:
    """A worker is offered the projects of the language they work in first (issue 30 §5)."""

    @pytest.fixture
    def two_languages(self, owner):
        # By name the Persian project comes first: the order must come from the language.
        persian = make_project(owner, name="alborz", language="fa")
        english = make_project(owner, name="nile", language="en")
        add_paragraphs(persian, [FA_CONTEXT], title="تهران")
        add_paragraphs(english, [EN_CONTEXT, EN_CONTEXT + " Again."])
        return persian, english

    def names_in_order(self, client) -> list[str]:
        page = client.get(reverse("annotation:task_list")).content.decode()
        return sorted(["alborz", "nile"], key=page.index)

    def test_a_worker_who_works_in_english_sees_the_english_project_first(self, client, crowdworker, two_languages):
        persian, english = two_languages
        session_start_next(user=crowdworker, project=english)  # they work in English
        client.force_login(crowdworker)
        client.cookies["django_language"] = "fa"  # even on Persian pages
        assert self.names_in_order(client) == ["nile", "alborz"]
        api = client.get("/api/annotation/tasks/").json()
        rows = api["results"] if isinstance(api, dict) else api
        assert [row["name"] for row in rows] == ["nile", "alborz"]

    def test_a_persian_worker_sees_the_persian_project_first(self, client, crowdworker, two_languages):
        persian, _ = two_languages
        session_start_next(user=crowdworker, project=persian)
        client.force_login(crowdworker)
        assert self.names_in_order(client) == ["alborz", "nile"]

    def test_before_any_work_the_language_the_worker_chose_comes_first(self, client, crowdworker, two_languages):
        client.force_login(crowdworker)
        client.cookies["django_language"] = "en"
        assert self.names_in_order(client) == ["nile", "alborz"]
        client.cookies["django_language"] = "fa"
        assert self.names_in_order(client) == ["alborz", "nile"]
