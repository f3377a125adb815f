"""The release as a zip from the API, or a JSON error (owners and instructors only)."""
import io
import zipfile

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from evaluation.tests.factories import load_release

pytestmark = pytest.mark.django_db


def _unzip(content: bytes, tmp_path, name: str):
    zipfile.ZipFile(io.BytesIO(content)).extractall(tmp_path)
    return load_release(tmp_path / name)


def test_api_gives_the_zip_or_a_json_error(tmp_path, round_, release_round, instructor):
    api = APIClient()
    api.force_authenticate(instructor)
    url = reverse("evaluation_api:round_release", args=[release_round.pk])
    response = api.get(url, {"split_by": "folds", "fields": "fooled_cv,predictions"})
    assert response.status_code == 200
    assert sorted(_unzip(response.content, tmp_path, "stumper-r1")) == ["fold_0", "fold_1"]
    error = api.get(url, {"fields": "weights"})
    assert error.status_code == 400 and "finished evaluation report" in error.json()["detail"][0]
