"""A worker's home over the API: the task list, and starting or resuming the next paragraph."""
import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from annotation.tests.factories import FA_CONTEXT, api_client, task_next

pytestmark = pytest.mark.django_db


class TaskNextApiTests:
    def test_returns_the_paragraph_in_its_direction_and_resumes(self, fa_project, fa_paragraph, crowdworker):
        client = api_client(crowdworker)
        first = task_next(client, fa_project).json()["session"]
        assert first["paragraph"]["context"] == FA_CONTEXT and first["project"]["direction"] == "rtl"
        assert first["kind"] == "authoring" and first["questions"] == []
        assert task_next(client, fa_project).json()["session"]["id"] == first["id"]

    def test_nothing_left_and_bad_kind(self, project, crowdworker):
        client = api_client(crowdworker)
        assert task_next(client, project).json() == {"session": None,
                                                     "detail": "No paragraph needs this kind of work right now."}
        assert task_next(client, project, kind="everything").status_code == 400

    def test_token_auth_works_and_anonymous_is_refused(self, project, paragraph, crowdworker):
        token = Token.objects.create(user=crowdworker)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        assert task_next(client, project).status_code == 200
        assert task_next(APIClient(), project).status_code in (401, 403)

    def test_students_get_403_with_the_reason(self, project, paragraph, student):
        response = task_next(api_client(student), project)
        assert response.status_code == 403 and "crowdworkers" in response.json()["detail"]


class TaskListApiTests:
    def test_worker_sees_work_left_and_the_session_to_resume(self, project, paragraph, crowdworker):
        client = api_client(crowdworker)
        assert client.get(reverse("annotation_api:task_list")).json()["results"][0]["authoring_left"] == 1
        session_id = client.post(reverse("annotation_api:task_next", args=[project.pk]), {}, format="json").json()[
            "session"]["id"]
        row = client.get(reverse("annotation_api:task_list")).json()["results"][0]
        assert (row["project_id"], row["resume_authoring"], row["resume_second_pass"]) == (project.pk, session_id, None)

    def test_students_have_no_tasks(self, project, paragraph, student):
        assert api_client(student).get(reverse("annotation_api:task_list")).json()["results"] == []
