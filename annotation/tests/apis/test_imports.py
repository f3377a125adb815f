"""Imports over the API: SQuAD files and article JSON Lines, all or nothing, and their limits."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotation import inputs
from annotation.models import Article, Paragraph, SpanQuestion
from annotation.tests.factories import EN_CONTEXT, answer, api_client

pytestmark = pytest.mark.django_db


def _squad(qas) -> dict:
    return {"version": "v2.0", "data": [{"title": "Nile", "paragraphs": [{"context": EN_CONTEXT, "qas": qas}]}]}


def _file(data, name="upload.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data if isinstance(data, bytes) else data.encode("utf-8"))


class ImportApiTests:
    def test_squad_import(self, owner, project):
        qas = [{"id": "a1", "question": "Where do the branches meet?", "answers": [answer(EN_CONTEXT, "Khartoum")],
                "is_impossible": False},
               {"id": "a2", "question": "Who built the first dam?", "answers": [], "is_impossible": True}]
        response = api_client(owner).post(reverse("annotation_api:project_import_squad", args=[project.pk]),
                                          {"file": _file(json.dumps(_squad(qas))), "split": "test"}, format="multipart")
        assert response.status_code == 201, response.data
        assert (response.data["questions"], response.data["unanswerable"], response.data["answers"]) == (2, 1, 1)
        assert set(Article.objects.values_list("split", flat=True)) == {"test"}
        project.refresh_from_db()  # nothing guessed from the file: Stumper's own exports share its format
        assert (project.source_dataset, project.source_license) == ("", "")

    def test_squad_import_records_the_source_it_is_given(self, owner, project):
        qas = [{"id": "a2", "question": "Who built the first dam?", "answers": [], "is_impossible": True}]
        url = reverse("annotation_api:project_import_squad", args=[project.pk])
        response = api_client(owner).post(url, {"file": _file(json.dumps(_squad(qas))), "split": "test",
                                                "source_dataset": "squad_v2"}, format="multipart")
        assert response.status_code == 201, response.data
        project.refresh_from_db()
        assert (project.source_dataset, project.source_license) == ("squad_v2", "cc-by-sa-4.0")
        qas[0]["id"] = "a3"
        other = api_client(owner).post(url, {"file": _file(json.dumps(_squad(qas))), "split": "test",
                                             "source_dataset": "pquad"}, format="multipart")
        assert other.status_code == 400 and "already holds questions imported from squad_v2" in str(other.data)
        assert SpanQuestion.objects.filter(project=project).count() == 1

    def test_a_bad_squad_file_stores_nothing(self, owner, project):
        qas = [{"id": "a1", "question": "Q?", "answers": [{"text": "zzz", "answer_start": 0}], "is_impossible": False}]
        url = reverse("annotation_api:project_import_squad", args=[project.pk])
        client = api_client(owner)
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
        client = api_client(owner)
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
        response = api_client(other_instructor).post(reverse("annotation_api:project_import_squad", args=[project.pk]),
                                                     {"file": _file(json.dumps(_squad([]))), "split": "test"},
                                                     format="multipart")
        assert response.status_code == 403 and not Article.objects.exists()
