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
    # The way out in the API's words (the command says --split-by author, the page "By author").
    refused = api.get(url, {"split_by": "article"})
    assert refused.status_code == 400 and refused.json()["detail"][0].endswith(
        "or by the cross-validation folds. Ask with split_by=author.")


def test_imported_questions_without_a_recorded_source_are_released_once_it_is_given(tmp_path, course, instructor):
    from huggingface_hub import DatasetCard

    from collector.services.imports import codah_import
    from collector.services.rounds import round_create

    quiz = round_create(course=course, name="quiz", categories=["other"])
    codah_import(round_=quiz, text="o\tIt rained, so Omar\tsang.\tslept.\topened his umbrella.\tran.\t2\n",
                 author=instructor)  # no source recorded
    api = APIClient()
    api.force_authenticate(instructor)
    url = reverse("evaluation_api:round_release", args=[quiz.pk])
    asked = api.get(url)
    assert asked.status_code == 400 and "source dataset was not recorded at import" in asked.json()["detail"][0]
    response = api.get(url, {"source_dataset": "my-lab/quiz", "license": "cc-by-4.0"})
    assert response.status_code == 200
    zipfile.ZipFile(io.BytesIO(response.content)).extractall(tmp_path)
    card = DatasetCard.load(tmp_path / "stumper-quiz" / "README.md")
    assert (card.data.license, card.data.source_datasets) == ("cc-by-4.0", ["my-lab/quiz"])
    assert api.get(url, {"source_dataset": "not an id"}).json()["detail"][0].startswith("Invalid source dataset")
