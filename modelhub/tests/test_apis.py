"""``modelhub/apis.py``: the registry lists what the instructor may use; only a course shares its models."""
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from modelhub.models import ModelVersion
from modelhub.services import model_version_default, model_version_register

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def mine(course):
    return model_version_register(name="nlp-after-r1", kind="multiple_choice", path="/m/a", course_id=course.pk)


@pytest.fixture
def theirs(other_course):
    return model_version_register(name="vision-after-r1", kind="multiple_choice", path="/m/b",
                                  course_id=other_course.pk)


def test_the_list_holds_public_and_own_models_not_another_courses(instructor, other_instructor, mine, theirs):
    model_version_default()
    listed = client_of(instructor).get(reverse("modelhub_api:model_list")).json()
    assert {m["name"] for m in listed["results"]} == {"v0-minilm-zero-shot", "nlp-after-r1"}
    own = next(m for m in listed["results"] if m["name"] == "nlp-after-r1")
    assert own["course"] == {"id": mine.course_id, "name": "NLP 101"} and own["shared"] is False
    other = client_of(other_instructor).get(reverse("modelhub_api:model_list"), {"kind": "multiple_choice"}).json()
    assert {m["name"] for m in other["results"]} == {"vision-after-r1"}


def test_students_have_no_registry(student):
    assert client_of(student).get(reverse("modelhub_api:model_list")).status_code == 403


def test_sharing_makes_it_listed_for_every_instructor(instructor, other_instructor, mine):
    url = reverse("modelhub_api:model_share", args=[mine.pk])
    refused = client_of(other_instructor).post(url, {"shared": True}, format="json")
    assert refused.status_code == 404 and refused.json()["detail"] == "There is no such model version."  # as a missing one
    response = client_of(instructor).post(url, {"shared": True}, format="json")
    assert response.status_code == 200 and response.json()["shared"] is True
    listed = client_of(other_instructor).get(reverse("modelhub_api:model_list")).json()
    assert "nlp-after-r1" in {m["name"] for m in listed["results"]}
    assert client_of(instructor).post(url, {}, format="json").status_code == 400
    assert ModelVersion.objects.get(pk=mine.pk).shared
