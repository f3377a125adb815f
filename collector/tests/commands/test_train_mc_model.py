from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from collector.models import Round
from collector.tests.factories import GOOD_ROWS, tsv
from modelhub.models import ModelVersion


@pytest.fixture
def model_dir(settings, tmp_path) -> Path:
    settings.STUMPER_MODEL_DIR = tmp_path / "models"
    return settings.STUMPER_MODEL_DIR


@pytest.fixture
def train_tsv(tmp_path, good_tsv_text) -> Path:
    path = tmp_path / "train.tsv"
    path.write_text(good_tsv_text, encoding="utf-8")
    return path


@pytest.mark.django_db
def test_trains_registers_and_makes_live(model_dir, train_tsv, tiny_model_dir, plain_round):
    out = StringIO()

    call_command(
        "train_mc_model", "--tsv", str(train_tsv), "--name", "tiny-ft", "--base", str(tiny_model_dir),
        "--epochs", "1", "--batch-size", "4", "--eval-tsv", str(train_tsv), "--make-live", plain_round.name,
        stdout=out,
    )

    version = ModelVersion.objects.get(name="tiny-ft")
    assert version.kind == ModelVersion.Kind.MULTIPLE_CHOICE
    assert Path(version.path) == model_dir / "tiny-ft" and (model_dir / "tiny-ft" / "config.json").is_file()
    assert version.revision
    assert version.metrics["train_examples"] == 8 and version.metrics["epochs"] == 1
    assert 0.0 <= version.metrics["eval_accuracy"] <= 1.0 and version.metrics["eval_examples"] == 8
    assert Round.objects.get(pk=plain_round.pk).live_model == version
    assert version.course_id == plain_round.course_id  # live in the course's round: its instructors'
    output = out.getvalue()
    assert "step 2/2" in output and "loss" in output and "ETA" in output
    assert "is now the live model of round" in output


@pytest.mark.django_db
def test_trains_on_a_round_without_making_it_live(tmp_path, model_dir, train_tsv, tiny_model_dir, plain_round):
    call_command("import_codah", str(train_tsv), "--round", plain_round.name, stdout=StringIO())
    live_before = plain_round.live_model

    call_command(
        "train_mc_model", "--round", plain_round.name, "--name", "from-round", "--base", str(tiny_model_dir),
        "--epochs", "1", stdout=StringIO(),
    )

    version = ModelVersion.objects.get(name="from-round")
    assert version.metrics["train_examples"] == 8 and version.metrics["eval_accuracy"] is None
    assert version.course_id == plain_round.course_id  # trained on the course's questions: its instructors'
    assert Round.objects.get(pk=plain_round.pk).live_model == live_before


@pytest.mark.django_db
def test_mistakes_fail_before_training(tmp_path, model_dir, train_tsv, plain_round):
    def train(*args):
        call_command("train_mc_model", *args, "--base", str(tmp_path / "never-loaded"), stdout=StringIO())

    with pytest.raises(CommandError, match="No round is named 'nope'"):
        train("--tsv", str(train_tsv), "--name", "x", "--make-live", "nope")
    bad = tmp_path / "bad.tsv"
    bad.write_text(tsv([GOOD_ROWS[0], ("q", "P", "a", "b", "c", "d", 9)]), encoding="utf-8")
    with pytest.raises(CommandError, match="line 2: correct answer index"):
        train("--tsv", str(bad), "--name", "x")
    with pytest.raises(CommandError, match="epochs"):
        train("--tsv", str(train_tsv), "--name", "x", "--epochs", "0")
    with pytest.raises(CommandError, match="No such file|Errno 2"):
        train("--tsv", str(tmp_path / "missing.tsv"), "--name", "x")
    with pytest.raises(CommandError, match="Could not load model"):
        train("--tsv", str(train_tsv), "--name", "x")
    assert not ModelVersion.objects.filter(name="x").exists()


@pytest.mark.django_db
def test_refuses_to_overwrite_the_zero_shot_default(model_dir, train_tsv, tiny_model_dir):
    from modelhub.services import DEFAULT_MODEL_NAME, model_version_default

    model_version_default()
    with pytest.raises(CommandError, match="already registered"):
        call_command("train_mc_model", "--tsv", str(train_tsv), "--name", DEFAULT_MODEL_NAME,
                     "--base", str(tiny_model_dir), "--epochs", "1", stdout=StringIO())
