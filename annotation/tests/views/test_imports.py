"""The import page: a file's problems listed and nothing stored, or the passages imported."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotation.models import Article, Paragraph

pytestmark = pytest.mark.django_db


class ImportPageTests:
    def test_import_pages_list_problems_and_store_nothing(self, client, project):
        client.force_login(project.owner)
        url = reverse("annotation:project_import", args=[project.pk])
        bad = {"data": [{"title": "T", "paragraphs": [{"context": "abc", "qas": [
            {"id": "1", "question": "Q?", "answers": [{"text": "zzz", "answer_start": 0}], "is_impossible": False}]}]}]}
        response = client.post(url, {"which": "squad", "split": "test",
                                     "file": SimpleUploadedFile("bad.json", json.dumps(bad).encode())})
        html = response.content.decode()
        assert "Nothing was imported" in html and "data[0].paragraphs[0].qas[0] (id &#x27;1&#x27;).answers[0]" in html
        assert not Article.objects.exists()
        articles = "\n".join(json.dumps({"title": t, "paragraphs": ["x" * 600], "links": []}) for t in "ABC")
        response = client.post(url, {"which": "articles", "file": SimpleUploadedFile("a.jsonl", articles.encode())})
        assert response.url == reverse("annotation:project_dashboard", args=[project.pk])
        assert Paragraph.objects.count() == 3
