"""``manage.py export_hf``: one service call, --json, clear errors, and the hub upload up to its last call."""
import io
import json
from unittest import mock

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings
from huggingface_hub import HfApi

from evaluation.tests.factories import load_release

pytestmark = pytest.mark.django_db


def _run(*args):
    out = io.StringIO()
    call_command("export_hf", *args, stdout=out)
    return out.getvalue()


def test_json_prints_one_document_with_the_splits(tmp_path, release_round):
    document = json.loads(_run("--round", release_round.name, str(tmp_path / "out"), "--json"))
    loaded = load_release(tmp_path / "out")
    assert document["splits"] == {split: len(loaded[split]) for split in loaded}
    assert document["rows"] == 16 and document["license"] == "cc-by-sa-4.0" and "README.md" in document["files"]


def test_source_dataset_names_the_source_of_questions_imported_without_one(tmp_path, course, instructor):
    from collector.services.imports import codah_import
    from collector.services.rounds import round_create

    quiz = round_create(course=course, name="quiz", categories=["other"])
    codah_import(round_=quiz, text="o\tIt rained, so Omar\tsang.\tslept.\topened his umbrella.\tran.\t2\n",
                 author=instructor)  # no source recorded
    with pytest.raises(CommandError, match="source dataset was not recorded at import"):
        _run("--round", "quiz", str(tmp_path / "refused"))
    document = json.loads(_run("--round", "quiz", str(tmp_path / "out"), "--source-dataset", "codah", "--json"))
    assert document["license"] == "odc-by" and "source_datasets:\n- codah\n" in (tmp_path / "out" / "README.md").read_text()


def test_plain_output_says_how_to_load_it(tmp_path, release_round):
    text = _run("--round", release_round.name, str(tmp_path / "out"), "--status", "all", "--license", "mit")
    assert "Wrote 18 questions of stumper-r1" in text and "datasets.load_dataset(" in text


@pytest.mark.parametrize("args, message", [
    (["--round", "nope"], "No round is named 'nope'"),
    (["--project", "nope"], "no annotation project called 'nope'"),
    (["--round", "r1", "--license", "proprietary"], "Unknown license 'proprietary'"),
])
def test_errors_are_command_errors(tmp_path, release_round, args, message):
    with pytest.raises(CommandError, match=message):
        _run(*args, str(tmp_path / "out"))
    assert list(tmp_path.iterdir()) == []


def test_a_refusal_names_the_flag_that_makes_the_release(tmp_path, round_, student, fake_model):
    from collector.services.questions import question_submit
    from collector.tests.factories import question_data

    question_submit(user=student, round_id=round_.pk, **question_data())
    with pytest.raises(CommandError, match=r"release the questions not yet accepted too\. Pass --status all\.$"):
        _run("--round", round_.name, str(tmp_path / "out"))
    with pytest.raises(CommandError, match=r"or split by author\. Pass --split-by author\.$"):
        _run("--round", round_.name, str(tmp_path / "out"), "--status", "all", "--split-by", "folds")


@override_settings(HF_TOKEN="hf_test_token")
def test_push_to_hub_checks_everything_then_uploads_the_folder(tmp_path, release_round):
    commit = mock.Mock(repo_url="https://huggingface.co/datasets/lab/stumper-r1")
    with mock.patch("huggingface_hub.constants.HF_HUB_OFFLINE", False), \
            mock.patch.object(HfApi, "create_repo") as create_repo, \
            mock.patch.object(HfApi, "upload_folder", return_value=commit) as upload:
        document = json.loads(_run("--round", release_round.name, str(tmp_path / "out"), "--push-to-hub",
                                   "lab/stumper-r1", "--json"))
    create_repo.assert_called_once_with("lab/stumper-r1", repo_type="dataset", private=True, exist_ok=True)
    assert upload.call_args.kwargs["folder_path"] == str(tmp_path / "out")
    assert upload.call_args.kwargs["repo_type"] == "dataset"
    assert document["hub_url"] == "https://huggingface.co/datasets/lab/stumper-r1"


@pytest.mark.parametrize("repo, token, offline, message", [
    ("lab/stumper-r1", "", False, "No hub token: set the environment variable HF_TOKEN"),
    ("lab/bad name", "t", False, "Invalid hub repository id"),
    ("stumper-r1", "t", False, "OWNER/NAME"),
    ("lab/stumper-r1", "t", True, "HF_HUB_OFFLINE is set"),
])
def test_push_to_hub_refuses_before_any_network_call(tmp_path, release_round, repo, token, offline, message):
    with override_settings(HF_TOKEN=token), mock.patch("huggingface_hub.constants.HF_HUB_OFFLINE", offline), \
            mock.patch.object(HfApi, "create_repo") as create_repo, mock.patch.object(HfApi, "upload_folder") as upload, \
            pytest.raises(CommandError, match=message):
        _run("--round", release_round.name, str(tmp_path / "out"), "--push-to-hub", repo)
    create_repo.assert_not_called()
    upload.assert_not_called()
