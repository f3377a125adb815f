"""The release as a zip from the round page and the project dashboard (owners and instructors only)."""
import io
import zipfile

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from annotation.tests.factories import make_project
from evaluation.tests.factories import load_release, span_project

pytestmark = pytest.mark.django_db


def _unzip(content: bytes, tmp_path, name: str):
    zipfile.ZipFile(io.BytesIO(content)).extractall(tmp_path)
    return load_release(tmp_path / name)


def test_round_page_offers_the_release_and_the_zip_loads(client, tmp_path, release_round, instructor):
    client.force_login(instructor)
    page = client.get(reverse("collector:round_detail", args=[release_round.pk]))
    url = reverse("evaluation:round_release", args=[release_round.pk])
    assert url in page.content.decode() and "Download dataset release" in page.content.decode()
    response = client.get(url, {"status": "all", "fields": ["fooled_live", "agreement"], "license": "cc-by-4.0"})
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert 'filename="stumper-r1.zip"' in response["Content-Disposition"]
    loaded = _unzip(response.content, tmp_path, "stumper-r1")
    assert sum(len(loaded[s]) for s in loaded) == 18 and "agreement" in loaded["train"].features


def test_a_round_that_cannot_be_released_says_why_on_the_page(client, release_round, instructor):
    client.force_login(instructor)
    response = client.get(reverse("evaluation:round_release", args=[release_round.pk]), {"license": "nope"},
                          follow=True)
    assert response.redirect_chain[-1][0].endswith("#release-heading")
    assert "No dataset release: Unknown license &#x27;nope&#x27;" in response.content.decode()


@pytest.mark.parametrize("who", ["student", "other_instructor"])
def test_students_and_other_instructors_get_403(client, release_round, who, request):
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("evaluation:round_release", args=[release_round.pk])).status_code == 403
    api = APIClient()
    api.force_authenticate(request.getfixturevalue(who))
    assert api.get(reverse("evaluation_api:round_release", args=[release_round.pk])).status_code == 403


def test_project_dashboard_and_api_for_the_owner_only(client, tmp_path, instructor, other_instructor):
    project = span_project(instructor)
    client.force_login(instructor)
    page = client.get(reverse("annotation:project_dashboard", args=[project.pk]))
    assert reverse("evaluation:project_release", args=[project.pk]) in page.content.decode()
    api = APIClient()
    api.force_authenticate(instructor)
    response = api.get(reverse("evaluation_api:project_release", args=[project.pk]))
    assert response.status_code == 200
    assert sorted(_unzip(response.content, tmp_path, "stumper-nile-eval")) == ["train", "validation"]
    empty = make_project(instructor, name="empty")
    error = api.get(reverse("evaluation_api:project_release", args=[empty.pk]))
    assert error.status_code == 400 and "no submitted questions" in error.json()["detail"][0]
    api.force_authenticate(other_instructor)
    assert api.get(reverse("evaluation_api:project_release", args=[project.pk])).status_code == 403
