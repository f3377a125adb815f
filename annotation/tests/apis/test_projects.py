"""Projects over the API, for their owners: the list, creating one, reading and changing its settings."""
import pytest
from django.urls import reverse

from annotation.models import Project
from annotation.tests.factories import api_client
from core.tests.factories import assert_settings_refused

pytestmark = pytest.mark.django_db


class ProjectListAndCreateApiTests:
    def test_owner_lists_and_creates(self, owner, project, paragraph, other_instructor):
        client = api_client(owner)
        listed = client.get(reverse("annotation_api:project_list")).json()["results"]
        assert [(p["name"], p["paragraphs"]) for p in listed] == [("nile", 1)]
        assert api_client(other_instructor).get(reverse("annotation_api:project_list")).json()["results"] == []
        response = client.post(reverse("annotation_api:project_create"),
                               {"name": "pquad-like", "language": "fa", "overlap": 2}, format="json")
        assert response.status_code == 201, response.data
        created = Project.objects.get(name="pquad-like")
        assert (created.owner, created.language, created.overlap, created.questions_max) == (owner, "fa", 2, 10)

    @pytest.mark.parametrize(("body", "field"), [({}, "name"), ({"name": "nile"}, "name"),
                                                 ({"name": "x", "language": "de"}, "language"),
                                                 ({"name": "x", "questions_max": 99}, "questions_max"),
                                                 ({"name": "x", "questions_min": 9, "questions_max": 3}, "questions_min"),
                                                 ({"name": "x", "qa_model": 999}, "qa_model")])
    def test_bad_input_is_400(self, owner, project, body, field):
        response = api_client(owner).post(reverse("annotation_api:project_create"), body, format="json")
        assert response.status_code == 400 and field in str(response.data), response.data
        assert Project.objects.count() == 1

    @pytest.mark.parametrize("who", ["student", "crowdworker"])
    def test_only_instructors_manage_projects(self, who, request):
        client = api_client(request.getfixturevalue(who))
        assert client.get(reverse("annotation_api:project_list")).status_code == 403
        response = client.post(reverse("annotation_api:project_create"), {"name": "mine"}, format="json")
        assert response.status_code == 403 and not Project.objects.exists()


class ProjectSettingsApiTests:
    def test_read_and_update_some(self, owner, project, qa_version):
        client = api_client(owner)
        assert client.get(reverse("annotation_api:project_settings", args=[project.pk])).json()["questions_max"] == 4
        response = client.post(reverse("annotation_api:project_settings_update", args=[project.pk]),
                               {"overlap": 3, "qa_model": qa_version.pk, "is_active": False}, format="json")
        assert response.status_code == 200, response.data
        project.refresh_from_db()
        assert (project.overlap, project.qa_model, project.is_active, project.questions_max) == (3, qa_version, False, 4)

    def test_the_language_is_fixed_and_bad_values_save_nothing(self, owner, project, tiny_model_version):
        url = reverse("annotation_api:project_settings_update", args=[project.pk])
        client = api_client(owner)
        client.post(url, {"language": "fa"}, format="json")
        assert Project.objects.get(pk=project.pk).language == "en"
        bad = client.post(url, {"overlap": 5, "questions_min": 9}, format="json")
        assert bad.status_code == 400 and "questions_min" in str(bad.data)
        not_qa = client.post(url, {"qa_model": tiny_model_version.pk}, format="json")
        assert not_qa.status_code == 400 and "qa_model" in not_qa.data
        assert Project.objects.get(pk=project.pk).overlap == 1

    @pytest.mark.parametrize("who", ["other_instructor", "crowdworker"])
    def test_others_get_403(self, project, who, request):
        assert_settings_refused(request.getfixturevalue(who), project, body={"overlap": 4},
                                read_url=reverse("annotation_api:project_settings", args=[project.pk]),
                                update_url=reverse("annotation_api:project_settings_update", args=[project.pk]))
