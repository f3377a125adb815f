"""The starter model (issue 30 §7): at first start a job fine-tunes the base model on CODAH-format questions
less a seeded held-out part, registers it with its measured accuracy and puts it live in the demo round.

The base is the tiny random BERT and the "CODAH" file a toy TSV in tmp_path (never a MiniLM fine-tune here).
"""
from unittest import mock

import pytest
from django.core.management import call_command
from django.urls import reverse

from collector.models import Round, TrainingJob
from collector.presentation.training import training_job_payload
from collector.services import starter
from collector.services.demo import demo_seed
from collector.services.rounds import round_set_live_model
from collector.services.starter import STARTER_MODEL_NAME, demo_starter_schedule, starter_job_run
from collector.services.training import training_jobs_resume_interrupted
from mlcore.configs import FineTuneConfig, ScorerKind, ScorerSpec
from mlcore.data import codah_source
from mlcore.data.codah import format_codah_tsv
from mlcore.data.codah_source import codah_holdout_split
from mlcore.models.inference import MultipleChoiceModelScorer
from mlcore.testing import make_toy_examples
from modelhub.models import ModelVersion
from modelhub.services import DEFAULT_MODEL_NAME, model_version_register

TINY = {"epochs": 1, "batch_size": 4, "max_length": 32, "freeze_layers": 1, "threads": 1}
N_QUESTIONS = 40


@pytest.fixture
def codah_file(tmp_path):
    path = tmp_path / "full_data.tsv"
    path.write_text(format_codah_tsv(make_toy_examples(N_QUESTIONS, seed=5)), encoding="utf-8")
    return path


@pytest.fixture
def starter_setup(db, settings, tmp_path, tiny_model_dir, codah_file, monkeypatch):
    """The demo course and round, the tiny BERT as the base and the toy file as the CODAH source."""
    settings.STUMPER_MODEL_DIR = tmp_path / "models"
    settings.VAR_DIR = tmp_path / "var"
    settings.STUMPER_STARTER_CODAH = str(codah_file)
    monkeypatch.setattr(starter, "STARTER_BASE", str(tiny_model_dir))
    monkeypatch.setattr(starter, "starter_config", lambda: FineTuneConfig(**TINY))
    return demo_seed().round_


def start(django_capture_on_commit_callbacks):
    """A first start: queue the job and run its (eager) task."""
    with django_capture_on_commit_callbacks(execute=True):
        return demo_starter_schedule()


def test_trains_registers_its_measured_accuracy_and_goes_live(starter_setup, django_capture_on_commit_callbacks):
    demo_round = starter_setup
    assert demo_round.live_model.name == DEFAULT_MODEL_NAME
    job = start(django_capture_on_commit_callbacks)
    job.refresh_from_db()
    assert job.status == TrainingJob.Status.DONE, job.error
    version = job.model_version
    assert version.name == STARTER_MODEL_NAME and version.course_id is None  # public, like version 0
    demo_round.refresh_from_db()
    assert demo_round.live_model_id == version.pk and job.progress["live"] is True

    # An independent recount on the held-out rows: reload the saved weights and count right answers.
    examples = make_toy_examples(N_QUESTIONS, seed=5)
    split = codah_holdout_split(N_QUESTIONS, fraction=0.1, seed=0)
    held_out = [examples[i] for i in split.test]
    scorer = MultipleChoiceModelScorer(ScorerSpec(ScorerKind.MULTIPLE_CHOICE, version.path, version.name))
    correct = sum(p.predicted == ex.label for p, ex in zip(scorer.predict(held_out), held_out, strict=True))
    assert version.metrics["eval_examples"] == len(held_out) == 4
    assert version.metrics["eval_accuracy"] == correct / len(held_out)
    assert version.metrics["train_examples"] == N_QUESTIONS - 4
    assert version.metrics["eval_set"] == "CODAH, 10% held out (seed 0)"
    assert "36 questions of CODAH" in version.description and "ODC-By 1.0" in version.description
    assert "4 CODAH questions held out" in version.description
    assert training_job_payload(job)["display"]["result"] == (
        f"Registered model version {STARTER_MODEL_NAME}, now live in round {demo_round.name}.")


def test_a_second_start_does_not_retrain(starter_setup, django_capture_on_commit_callbacks):
    with mock.patch.object(starter, "task_enqueue") as enqueue, django_capture_on_commit_callbacks(execute=True):
        queued = demo_starter_schedule()
        again = demo_starter_schedule()  # started twice before a worker ran: the same job
    assert again == queued and enqueue.call_count == 1
    assert enqueue.call_args.args == ("collector.train_starter_model", queued.pk)
    starter_job_run(job_id=queued.pk)
    assert starter_job_run(job_id=queued.pk).status == TrainingJob.Status.DONE  # a redelivery does nothing
    with mock.patch.object(starter, "task_enqueue") as enqueue:
        with django_capture_on_commit_callbacks(execute=True):
            assert demo_starter_schedule() is None
        call_command("starter_model")
    enqueue.assert_not_called()
    assert TrainingJob.objects.filter(kind=TrainingJob.Kind.STARTER).count() == 1
    assert ModelVersion.objects.filter(name=STARTER_MODEL_NAME).count() == 1


def test_without_data_it_says_so_and_version_0_keeps_serving(starter_setup, settings, tmp_path, client,
                                                             django_capture_on_commit_callbacks):
    demo_round = starter_setup
    settings.STUMPER_STARTER_CODAH = str(tmp_path / "absent.tsv")
    job = start(django_capture_on_commit_callbacks)
    job.refresh_from_db()
    assert job.status == TrainingJob.Status.FAILED
    assert job.error == f"not trained: no CODAH data ({tmp_path / 'absent.tsv'} is not a file)"
    assert not ModelVersion.objects.filter(name=STARTER_MODEL_NAME).exists()
    demo_round.refresh_from_db()
    assert demo_round.live_model.name == DEFAULT_MODEL_NAME
    client.force_login(demo_round.course.owner)
    page = client.get(reverse("collector:round_detail", args=[demo_round.pk])).content.decode()
    assert "Starter model: not trained: no CODAH data (" in page

    # Offline with the official URL: the same clear state; a later start with data tries again.
    settings.STUMPER_STARTER_CODAH = codah_source.OFFICIAL_CODAH_URL
    with mock.patch.object(codah_source.requests, "get", side_effect=codah_source.requests.ConnectionError):
        offline = start(django_capture_on_commit_callbacks)
    offline.refresh_from_db()
    assert offline.pk != job.pk and offline.error.startswith("not trained: no CODAH data (https://raw.githubuser")


def test_an_instructor_s_choice_made_meanwhile_is_kept(starter_setup, tiny_model_dir, client):
    demo_round = starter_setup
    with mock.patch.object(starter, "task_enqueue"):
        job = demo_starter_schedule()
    chosen = model_version_register(name="instructor-choice", kind="multiple_choice", path=str(tiny_model_dir))
    round_set_live_model(round_=demo_round, model_version=chosen, user=demo_round.course.owner)
    job = starter_job_run(job_id=job.pk)
    assert job.status == TrainingJob.Status.DONE and job.model_version.name == STARTER_MODEL_NAME
    assert Round.objects.get(pk=demo_round.pk).live_model_id == chosen.pk and job.progress["live"] is False
    assert "was changed meanwhile" in training_job_payload(job)["display"]["result"]
    client.force_login(demo_round.course.owner)
    page = client.get(reverse("collector:round_detail", args=[demo_round.pk])).content.decode()
    assert "the live model was changed before it was ready" in page


def test_the_round_page_says_which_model_is_live_and_how_it_was_trained(starter_setup, client,
                                                                        django_capture_on_commit_callbacks):
    demo_round = starter_setup
    client.force_login(demo_round.course.owner)
    with mock.patch.object(starter, "task_enqueue"):
        demo_starter_schedule()
    url = reverse("collector:round_detail", args=[demo_round.pk])
    waiting = client.get(url).content.decode()
    assert "A starter model is being fine-tuned on the public CODAH questions" in waiting
    assert "How the live model v0-minilm-zero-shot was trained:" in waiting
    assert "Cosine similarity of MiniLM sentence embeddings; no training." in waiting
    client.cookies["django_language"] = "fa"
    persian = client.get(url).content.decode()
    assert "مدل زندهٔ v0-minilm-zero-shot چگونه آموزش دیده است:" in persian
    assert "شباهت کسینوسی بردارهای جمله‌ای MiniLM؛ بدون آموزش." in persian
    assert "یک مدل آغازین در پس‌زمینه روی پرسش‌های عمومی CODAH تنظیم می‌شود" in persian
    client.cookies["django_language"] = "en"
    starter_job_run(job_id=TrainingJob.objects.get(kind=TrainingJob.Kind.STARTER).pk)
    page = client.get(url).content.decode()
    version = ModelVersion.objects.get(name=STARTER_MODEL_NAME)
    assert f"How the live model {STARTER_MODEL_NAME} was trained:" in page
    assert "ODC-By 1.0" in page and "starter-model-state" not in page
    assert "CODAH, 10% held out (seed 0), 4 questions" in page
    assert version.metrics["eval_examples"] == 4


def test_a_worker_start_sends_a_queued_starter_job_to_its_task(starter_setup):
    with mock.patch.object(starter, "task_enqueue"):
        job = demo_starter_schedule()
    with mock.patch("collector.services.training.task_enqueue") as enqueue:
        assert training_jobs_resume_interrupted() == 1
    enqueue.assert_called_once_with("collector.train_starter_model", job.pk)


def test_the_default_source_is_the_official_file(settings):
    assert settings.STUMPER_STARTER_CODAH == codah_source.OFFICIAL_CODAH_URL
