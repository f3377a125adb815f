"""The project report API with the ambiguity probes' inputs by choice or upload, and the list of uploads."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from evaluation.models import AmbiguityDataset, EvaluationRun
from evaluation.services import reports as report_services
from evaluation.tests.ambiguity_data import make_project, question_record, with_qa_model

pytestmark = pytest.mark.django_db


QUESTIONS = "".join(json.dumps(question_record(i, f"Ann Lee{i}", f"Bob Ray{i}")) + "\n" for i in (1, 2))


@pytest.fixture
def api(instructor, monkeypatch):
    monkeypatch.setattr(report_services, "evaluation_schedule", lambda *, run_id: None)
    client = APIClient()
    client.force_authenticate(instructor)
    return client


@pytest.fixture
def project(instructor):
    return with_qa_model(make_project(instructor))


def start(api, project, data, **kwargs):
    return api.post(reverse("evaluation_api:project_run_start", args=[project.pk]), data, **kwargs)


def test_upload_in_a_multipart_start_then_listed_and_chosen(api, project):
    response = start(api, project, {"k": 5, "ambiguity_questions_file": SimpleUploadedFile("q.jsonl", QUESTIONS.encode()),
                                    "occupations": "unqover"}, format="multipart")
    assert response.status_code == 201, response.data
    dataset = AmbiguityDataset.objects.get()
    run = EvaluationRun.objects.get()
    assert run.config["k"] == 5 and run.snapshot["ambiguity"]["questions"]["dataset_id"] == dataset.pk
    listed = api.get(reverse("evaluation_api:project_ambiguity_dataset_list", args=[project.pk])).json()
    assert [(d["id"], d["kind"], d["name"], d["items"]) for d in listed] == [(dataset.pk, "questions", "q.jsonl", 2)]


def test_bad_upload_and_bad_choice_are_400s_and_save_nothing(api, project):
    bad = SimpleUploadedFile("q.jsonl", (QUESTIONS + "{oops\n").encode())
    response = start(api, project, {"ambiguity_questions_file": bad}, format="multipart")
    assert response.status_code == 400
    assert "q.jsonl: line 3: not an ambiguity record" in response.json()["ambiguity_questions_file"][0]
    response = start(api, project, {"ambiguity_questions": "12345"}, format="json")
    assert response.status_code == 400 and "ambiguity_questions" in response.json()
    response = start(api, project, {"occupation": "unqover"}, format="json")  # misspelt: named, not ignored
    assert response.status_code == 400 and "occupation" in response.json()
    assert not AmbiguityDataset.objects.exists() and not EvaluationRun.objects.exists()


def test_json_choice_of_none_and_the_owner_only(api, project, other_instructor):
    response = start(api, project, {"ambiguity_questions": "none"}, format="json")
    assert response.status_code == 201 and EvaluationRun.objects.get().snapshot["ambiguity"] == {"questions": "none"}
    api.force_authenticate(other_instructor)
    assert api.get(reverse("evaluation_api:project_ambiguity_dataset_list", args=[project.pk])).status_code == 403


def test_a_question_set_without_a_qa_model_is_a_400_and_saves_nothing(api, instructor):
    bare = make_project(instructor, name="bare")
    response = start(api, bare, {"ambiguity_questions_file": SimpleUploadedFile("q.jsonl", QUESTIONS.encode())},
                     format="multipart")
    assert response.status_code == 400
    assert "needs an extractive question-answering model" in response.json()["ambiguity_questions_file"][0]
    assert not AmbiguityDataset.objects.exists() and not EvaluationRun.objects.exists()

