"""Projects over the API: the worker's task list, and for owners their projects, settings and imports."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from annotation import inputs
from annotation.models import Article, Paragraph, Project, SpanQuestion
from annotation.tests.factories import EN_CONTEXT, answer

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


class TaskListApiTests:
    def test_worker_sees_work_left_and_the_session_to_resume(self, project, paragraph, crowdworker):
        client = client_of(crowdworker)
        assert client.get(reverse("annotation_api:task_list")).json()["results"][0]["authoring_left"] == 1
        session_id = client.post(reverse("annotation_api:task_next", args=[project.pk]), {}, format="json").json()[
            "session"]["id"]
        row = client.get(reverse("annotation_api:task_list")).json()["results"][0]
        assert (row["project_id"], row["resume_authoring"], row["resume_second_pass"]) == (project.pk, session_id, None)

    def test_students_have_no_tasks(self, project, paragraph, student):
        assert client_of(student).get(reverse("annotation_api:task_list")).json()["results"] == []


class ProjectListAndCreateApiTests:
    def test_owner_lists_and_creates(self, owner, project, paragraph, other_instructor):
        client = client_of(owner)
        listed = client.get(reverse("annotation_api:project_list")).json()["results"]
        assert [(p["name"], p["paragraphs"]) for p in listed] == [("nile", 1)]
        assert client_of(other_instructor).get(reverse("annotation_api:project_list")).json()["results"] == []
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
        response = client_of(owner).post(reverse("annotation_api:project_create"), body, format="json")
        assert response.status_code == 400 and field in str(response.data), response.data
        assert Project.objects.count() == 1

    @pytest.mark.parametrize("who", ["student", "crowdworker"])
    def test_only_instructors_manage_projects(self, who, request):
        client = client_of(request.getfixturevalue(who))
        assert client.get(reverse("annotation_api:project_list")).status_code == 403
        response = client.post(reverse("annotation_api:project_create"), {"name": "mine"}, format="json")
        assert response.status_code == 403 and not Project.objects.exists()


class ProjectSettingsApiTests:
    def test_read_and_update_some(self, owner, project, qa_version):
        client = client_of(owner)
        assert client.get(reverse("annotation_api:project_settings", args=[project.pk])).json()["questions_max"] == 4
        response = client.post(reverse("annotation_api:project_settings_update", args=[project.pk]),
                               {"overlap": 3, "qa_model": qa_version.pk, "is_active": False}, format="json")
        assert response.status_code == 200, response.data
        project.refresh_from_db()
        assert (project.overlap, project.qa_model, project.is_active, project.questions_max) == (3, qa_version, False, 4)

    def test_the_language_is_fixed_and_bad_values_save_nothing(self, owner, project, tiny_model_version):
        url = reverse("annotation_api:project_settings_update", args=[project.pk])
        client = client_of(owner)
        client.post(url, {"language": "fa"}, format="json")
        assert Project.objects.get(pk=project.pk).language == "en"
        bad = client.post(url, {"overlap": 5, "questions_min": 9}, format="json")
        assert bad.status_code == 400 and "questions_min" in str(bad.data)
        not_qa = client.post(url, {"qa_model": tiny_model_version.pk}, format="json")
        assert not_qa.status_code == 400 and "qa_model" in not_qa.data
        assert Project.objects.get(pk=project.pk).overlap == 1

    @pytest.mark.parametrize("who", ["other_instructor", "crowdworker"])
    def test_others_get_403(self, project, who, request):
        client = client_of(request.getfixturevalue(who))
        assert client.get(reverse("annotation_api:project_settings", args=[project.pk])).status_code == 403
        response = client.post(reverse("annotation_api:project_settings_update", args=[project.pk]), {"overlap": 4},
                               format="json")
        assert response.status_code == 403 and Project.objects.get(pk=project.pk).overlap == 1


def _squad(qas) -> dict:
    return {"version": "v2.0", "data": [{"title": "Nile", "paragraphs": [{"context": EN_CONTEXT, "qas": qas}]}]}


def _file(data, name="upload.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data if isinstance(data, bytes) else data.encode("utf-8"))


class ImportApiTests:
    def test_squad_import(self, owner, project):
        qas = [{"id": "a1", "question": "Where do the branches meet?", "answers": [answer(EN_CONTEXT, "Khartoum")],
                "is_impossible": False},
               {"id": "a2", "question": "Who built the first dam?", "answers": [], "is_impossible": True}]
        response = client_of(owner).post(reverse("annotation_api:project_import_squad", args=[project.pk]),
                                         {"file": _file(json.dumps(_squad(qas))), "split": "test"}, format="multipart")
        assert response.status_code == 201, response.data
        assert (response.data["questions"], response.data["unanswerable"], response.data["answers"]) == (2, 1, 1)
        assert set(Article.objects.values_list("split", flat=True)) == {"test"}

    def test_a_bad_squad_file_stores_nothing(self, owner, project):
        qas = [{"id": "a1", "question": "Q?", "answers": [{"text": "zzz", "answer_start": 0}], "is_impossible": False}]
        url = reverse("annotation_api:project_import_squad", args=[project.pk])
        client = client_of(owner)
        bad = client.post(url, {"file": _file(json.dumps(_squad(qas))), "split": "test"}, format="multipart")
        assert bad.status_code == 400 and bad.data["file"][0].startswith("data[0].paragraphs[0].qas[0] (id 'a1')")
        not_json = client.post(url, {"file": _file("{nope"), "split": "test"}, format="multipart")
        assert not_json.status_code == 400 and "Not valid JSON" in not_json.data["file"][0]
        deep = client.post(url, {"file": _file("[" * 100_000), "split": "test"}, format="multipart")
        assert deep.status_code == 400
        no_split = client.post(url, {"file": _file(json.dumps(_squad([])))}, format="multipart")
        assert no_split.status_code == 400 and "split" in no_split.data
        assert not Article.objects.exists() and not SpanQuestion.objects.exists()

    def test_articles_import_and_its_limits(self, owner, project, monkeypatch):
        url = reverse("annotation_api:project_import_articles", args=[project.pk])
        lines = "\n".join(json.dumps({"title": t, "paragraphs": ["x" * 600], "links": []}) for t in "ABC")
        client = client_of(owner)
        response = client.post(url, {"file": _file(lines, "a.jsonl"), "top": 2}, format="multipart")
        assert response.status_code == 201 and response.data["articles"] == 2 and Paragraph.objects.count() == 2
        again = client.post(url, {"file": _file(lines, "a.jsonl")}, format="multipart")
        assert again.status_code == 400 and "already has an article titled" in again.data["file"][0]
        monkeypatch.setattr(inputs, "MAX_UPLOAD_BYTES", 100)
        big = client.post(url, {"file": _file(lines.replace("A", "Z"), "a.jsonl")}, format="multipart")
        assert big.status_code == 400 and "larger than" in big.data["file"][0]
        assert client.post(url, {"file": _file(lines), "damping": 2}, format="multipart").status_code == 400
        assert Paragraph.objects.count() == 2

    def test_others_get_403(self, project, other_instructor):
        response = client_of(other_instructor).post(reverse("annotation_api:project_import_squad", args=[project.pk]),
                                                    {"file": _file(json.dumps(_squad([]))), "split": "test"},
                                                    format="multipart")
        assert response.status_code == 403 and not Article.objects.exists()
