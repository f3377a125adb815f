"""``train_mc_model``: checks its arguments, starts a training job and follows it (progress on stderr, the
result on stdout, non-zero exit when the job fails). The tests run Celery eagerly: the job's task runs
when the start commits; one test plays the worker in a thread instead."""
from io import StringIO
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import CommandError, call_command

from collector.models import Round, TrainingJob
from collector.services.training_command import training_command_run, training_command_start
from collector.tests.factories import GOOD_ROWS, tsv
from core.management import follow
from core.tests.late_worker import LateWorker
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


@pytest.fixture(autouse=True)
def fast_polling(monkeypatch):
    monkeypatch.setattr(follow, "POLL_SECONDS", 0.05)


@pytest.mark.django_db(transaction=True)
def test_trains_registers_and_makes_live(model_dir, train_tsv, tiny_model_dir, plain_round):
    out, err = StringIO(), StringIO()

    with mock.patch("collector.management.commands.train_mc_model.training_command_start",
                    wraps=training_command_start) as start:
        call_command(
            "train_mc_model", "--tsv", str(train_tsv), "--name", "tiny-ft", "--base", str(tiny_model_dir),
            "--epochs", "1", "--batch-size", "4", "--eval-tsv", str(train_tsv), "--make-live", plain_round.name,
            stdout=out, stderr=err,
        )
    start.assert_called_once()  # a job started as the web starts one, its task run by (eager) Celery

    version = ModelVersion.objects.get(name="tiny-ft")
    assert version.kind == ModelVersion.Kind.MULTIPLE_CHOICE
    assert Path(version.path) == model_dir / "tiny-ft" and (model_dir / "tiny-ft" / "config.json").is_file()
    assert version.revision
    assert version.metrics["train_examples"] == 8 and version.metrics["epochs"] == 1
    assert 0.0 <= version.metrics["eval_accuracy"] <= 1.0 and version.metrics["eval_examples"] == 8
    assert Round.objects.get(pk=plain_round.pk).live_model == version
    assert version.course_id == plain_round.course_id  # live in the course's round: its instructors'
    job = TrainingJob.objects.get()
    assert (job.kind, job.status, job.model_version, job.round, job.make_live_round) == (
        "command", "done", version, plain_round, plain_round)
    output = out.getvalue()
    assert output.splitlines()[0] == f"Training 'tiny-ft' on 8 questions (1 epoch(s), lr 5e-05, batch 4): training job {job.pk}"
    assert "[" + "#" * 24 + "] 100.0% Finished." in err.getvalue().splitlines()  # progress on stderr
    assert "[#" not in output and "is now the live model of round" in output
    assert f"Eval accuracy: {version.metrics['eval_accuracy']:.3f} on 8 questions" in output


@pytest.mark.django_db(transaction=True)
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


@pytest.mark.django_db(transaction=True)
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
    assert not TrainingJob.objects.exists()  # every mistake above was found before a job was started
    with pytest.raises(CommandError, match=r"Training job \d+ failed: ModelLoadError: Could not load model"):
        train("--tsv", str(train_tsv), "--name", "x")  # the worker finds it: the job fails, the command exits non-zero
    assert TrainingJob.objects.get().status == "failed"
    assert not ModelVersion.objects.filter(name="x").exists()


@pytest.mark.django_db
def test_refuses_to_overwrite_the_zero_shot_default(model_dir, train_tsv, tiny_model_dir):
    from modelhub.services import DEFAULT_MODEL_NAME, model_version_default

    model_version_default()
    with pytest.raises(CommandError, match="already registered"):
        call_command("train_mc_model", "--tsv", str(train_tsv), "--name", DEFAULT_MODEL_NAME,
                     "--base", str(tiny_model_dir), "--epochs", "1", stdout=StringIO())


@pytest.mark.django_db(transaction=True)
def test_no_wait_only_starts_the_job(model_dir, train_tsv, tiny_model_dir):
    out = StringIO()
    with mock.patch("collector.services.training_command.task_enqueue") as enqueue:
        call_command("train_mc_model", "--tsv", str(train_tsv), "--name", "later", "--base", str(tiny_model_dir),
                     "--no-wait", stdout=out)
    job = TrainingJob.objects.get()
    enqueue.assert_called_once_with("collector.training_command_run", job.pk)
    assert (job.status, job.round, job.options["tsv"], job.options["course_id"]) == ("queued", None, str(train_tsv), None)
    assert out.getvalue().splitlines()[-1] == f"Queued training job {job.pk}; a worker will run it"
    with pytest.raises(CommandError, match="already being trained"):
        call_command("train_mc_model", "--tsv", str(train_tsv), "--name", "later", "--no-wait", stdout=StringIO())


@pytest.mark.django_db(transaction=True)
def test_without_eager_celery_it_follows_the_worker_and_trains_nothing_itself(model_dir, train_tsv, tiny_model_dir,
                                                                              settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    worker = LateWorker(training_command_run)

    def send(name: str, job_id: int) -> None:
        assert name == "collector.training_command_run"
        worker.start(job_id)

    out, err = StringIO(), StringIO()
    with mock.patch("collector.services.training_command.task_enqueue", side_effect=send):
        call_command("train_mc_model", "--tsv", str(train_tsv), "--name", "by-worker", "--base", str(tiny_model_dir),
                     "--epochs", "1", stdout=out, stderr=err)
    worker.join()
    assert worker.ran_in == ["worker"]  # the command only started and followed the job
    assert TrainingJob.objects.get().status == "done"
    assert err.getvalue().splitlines()[0] == "[" + "." * 24 + "]   0.0% Waiting for a worker to start it."
    assert f"Saved by-worker to {model_dir / 'by-worker'}" in out.getvalue()
