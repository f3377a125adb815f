"""The training skeleton's checks and its folder swap (training itself: collector and annotation tests)."""
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from modelhub.models import ModelVersion
from modelhub.services import model_version_register
from modelhub.training import model_version_name_check, save_replacing


class FolderTrainer:
    def __init__(self, text: str) -> None:
        self.text = text

    def save(self, directory: Path) -> None:
        directory.mkdir()
        (directory / "weights.txt").write_text(self.text)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["has space", "../up", "-dash-first", ""])
def test_a_name_that_is_no_safe_folder_is_refused(name):
    with pytest.raises(ValidationError) as caught:
        model_version_name_check(name=name, kind=ModelVersion.Kind.MULTIPLE_CHOICE)
    assert "name" in caught.value.message_dict


@pytest.mark.django_db
def test_a_name_taken_by_another_kind_is_refused_and_the_same_kind_retrains():
    model_version_register(name="squad-qa", kind=ModelVersion.Kind.QUESTION_ANSWERING, path="/m/qa")
    with pytest.raises(ValidationError, match="already registered as a Extractive question answering"):
        model_version_name_check(name="squad-qa", kind=ModelVersion.Kind.MULTIPLE_CHOICE)
    model_version_name_check(name="squad-qa", kind=ModelVersion.Kind.QUESTION_ANSWERING)


def test_save_replacing_swaps_a_whole_folder_in(tmp_path):
    target = tmp_path / "models" / "v1"
    assert save_replacing(FolderTrainer("first"), target) == target
    save_replacing(FolderTrainer("second"), target)
    assert (target / "weights.txt").read_text() == "second"
    assert sorted(p.name for p in target.parent.iterdir()) == ["v1"]  # no partial or retired folder left
