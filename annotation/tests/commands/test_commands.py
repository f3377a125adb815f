"""Management commands: import_articles, import_squad, squad_eval, train_qa_model (export_squad is evaluation's)."""
import io
import json
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import CommandError, call_command

from annotation.models import Article, Paragraph, QATrainingJob, SpanQuestion
from annotation.selectors.exports import project_squad_dict
from annotation.services.qa_models import qa_training_command_start, qa_training_job_run
from annotation.tests.factories import SQUAD
from core.management import follow
from core.tests.late_worker import LateWorker
from modelhub.models import ModelVersion

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def _write(tmp_path: Path, name: str, data) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


class ImportCommandTests:
    def test_import_articles(self, project, tmp_path):
        lines = [json.dumps({"title": t, "paragraphs": ["p" * 600, "q" * 700], "links": links})
                 for t, links in (("A", ["B"]), ("B", ["A", "C"]), ("C", ["B"]))]
        path = _write(tmp_path, "articles.jsonl", "\n".join(lines) + "\n")
        out = run("import_articles", str(path), "--project", project.name, "--damping", "0.4", "--top", "2")
        assert "Imported 2 articles" in out and "4 paragraphs" in out
        assert Article.objects.order_by("rank").first().title == "B"

    def test_import_articles_reports_the_bad_line(self, project, tmp_path):
        path = _write(tmp_path, "bad.jsonl", '{"title": "A", "paragraphs": ["x"]}\n{"title": 5}\n')
        with pytest.raises(CommandError, match=r"line 2: \"title\" must be a non-empty string"):
            run("import_articles", str(path), "--project", project.name)
        assert not Paragraph.objects.exists()

    def test_unknown_project(self, tmp_path):
        with pytest.raises(CommandError, match="no annotation project called 'nope'"):
            run("import_squad", str(_write(tmp_path, "s.json", SQUAD)), "--project", "nope", "--split", "test")

    def test_import_squad_keeps_the_file_as_written(self, project, tmp_path):
        out = run("import_squad", str(_write(tmp_path, "s.json", SQUAD)), "--project", project.name,
                  "--split", "validation")
        assert "2 questions (1 unanswerable) and 1 answers" in out
        assert project_squad_dict(project=project, split="validation")["data"] == SQUAD["data"]
        project.refresh_from_db()
        assert (project.source_dataset, project.source_license) == ("", "")

    def test_import_squad_records_the_source_dataset_and_its_license(self, project, tmp_path):
        run("import_squad", str(_write(tmp_path, "s.json", SQUAD)), "--project", project.name, "--split", "test",
            "--source-dataset", "pquad")
        project.refresh_from_db()
        assert (project.source_dataset, project.source_license) == ("pquad", "cc-by-sa-4.0")

    def test_import_squad_refuses_broken_json_with_the_position(self, project, tmp_path):
        with pytest.raises(CommandError, match="not valid JSON: .* line 1"):
            run("import_squad", str(_write(tmp_path, "b.json", '{"data": [')), "--project", project.name,
                "--split", "test")
        bad = json.loads(json.dumps(SQUAD))
        bad["data"][0]["paragraphs"][0]["qas"][0]["answers"][0]["text"] = "Rome"
        with pytest.raises(CommandError, match=r"data\[0\]\.paragraphs\[0\]\.qas\[0\] \(id 'q1'\)\.answers\[0\]: "
                                               r"The answer 'Rome' does not match"):
            run("import_squad", str(_write(tmp_path, "bad.json", bad)), "--project", project.name, "--split", "test")
        assert not SpanQuestion.objects.exists()


R23 = [(["The Eiffel Tower", "Eiffel Tower"], "the eiffel tower."), (["Denver Broncos"], "Broncos"), ([], ""),
       ([], "Paris"), (["1066"], "")]


def _gold(cases) -> dict:
    qas = [{"id": str(i), "question": "?", "is_impossible": not golds,
            "answers": [{"text": g, "answer_start": 0} for g in golds]} for i, (golds, _) in enumerate(cases)]
    return {"version": "v2.0", "data": [{"title": "t", "paragraphs": [{"context": "c", "qas": qas}]}]}


class SquadEvalCommandTests:
    def test_spec_reference_values_r23(self, tmp_path):
        gold = _write(tmp_path, "gold.json", _gold(R23))
        preds = _write(tmp_path, "pred.json", {str(i): p for i, (_, p) in enumerate(R23)})
        scores = json.loads(run("squad_eval", str(gold), str(preds), "--json"))
        assert list(scores) == ["exact", "f1", "total", "HasAns_exact", "HasAns_f1", "HasAns_total", "NoAns_exact",
                                "NoAns_f1", "NoAns_total", "avna"]
        expected = {"exact": 40.0, "f1": 53.333333, "total": 5, "HasAns_exact": 33.333333, "HasAns_f1": 55.555556,
                    "HasAns_total": 3, "NoAns_exact": 50.0, "NoAns_f1": 50.0, "NoAns_total": 2, "avna": 60.0}
        for key, value in expected.items():
            assert scores[key] == pytest.approx(value, abs=1e-6), key

    def test_persian_normaliser_r24_r25(self, tmp_path):
        cases = [(["\u06a9\u062a\u0627\u0628\u200c\u0647\u0627"], "\u0643\u062a\u0627\u0628"),
                 (["\u06f1\u06f3 \u0633\u0627\u0644"], "13 \u0633\u0627\u0644")]
        gold = _write(tmp_path, "gold.json", _gold(cases))
        preds = _write(tmp_path, "pred.json", {str(i): p for i, (_, p) in enumerate(cases)})
        fa = json.loads(run("squad_eval", str(gold), str(preds), "--lang", "fa", "--json"))
        en = json.loads(run("squad_eval", str(gold), str(preds), "--lang", "en", "--json"))
        assert fa["f1"] == pytest.approx(100 * (0.666667 + 1) / 2, abs=1e-4) and fa["exact"] == 50.0
        assert en["f1"] == pytest.approx(100 * (0 + 0.5) / 2) and en["exact"] == 0.0

    def test_no_answer_threshold(self, tmp_path):
        gold = _write(tmp_path, "gold.json", _gold(R23))
        preds = _write(tmp_path, "pred.json", {str(i): p for i, (_, p) in enumerate(R23)})
        probs = _write(tmp_path, "na.json", {"0": 0.1, "1": 0.1, "2": 0.1, "3": 0.9, "4": 0.1})
        scores = json.loads(run("squad_eval", str(gold), str(preds), "--na-prob", str(probs), "--na-threshold", "0.5",
                                "--json"))
        assert scores["NoAns_exact"] == 100.0  # question 3 ("Paris") now counts as no answer

    def test_plain_output_and_bad_files(self, tmp_path):
        gold = _write(tmp_path, "gold.json", _gold(R23))
        preds = _write(tmp_path, "pred.json", {"0": "the eiffel tower."})
        assert "exact" in run("squad_eval", str(gold), str(preds))
        with pytest.raises(CommandError, match="not a string"):
            run("squad_eval", str(gold), str(_write(tmp_path, "p2.json", {"0": 3})))
        with pytest.raises(CommandError, match="mapping question ids"):
            run("squad_eval", str(gold), str(_write(tmp_path, "p3.json", ["x"])))
        with pytest.raises(CommandError, match="Cannot read"):
            run("squad_eval", str(tmp_path / "missing.json"), str(preds))
        with pytest.raises(CommandError, match="na_probs has no entry"):
            run("squad_eval", str(gold), str(preds), "--na-prob", str(_write(tmp_path, "na.json", {})))


def _river(tmp_path: Path) -> Path:
    context = "the river reaches the sea at khartoum ."
    qas = [{"id": f"q{i}", "question": "where does the river reach the sea ?",
            "answers": [{"text": "khartoum", "answer_start": context.index("khartoum")}], "is_impossible": False}
           for i in range(6)]
    data = {"version": "v2.0", "data": [{"title": "t", "paragraphs": [{"context": context, "qas": qas}]}]}
    return _write(tmp_path, "train.json", data)


@pytest.fixture
def fast_polling(monkeypatch):
    monkeypatch.setattr(follow, "POLL_SECONDS", 0.05)


@pytest.mark.django_db(transaction=True)  # the job's task is enqueued (and run eagerly) when the start commits
def test_train_qa_model_registers_a_version_and_attaches_it(project, tmp_path, tiny_qa_dir, settings, fast_polling):
    settings.STUMPER_MODEL_DIR = tmp_path / "models"
    path = _river(tmp_path)
    err = io.StringIO()
    with mock.patch("annotation.management.commands.train_qa_model.qa_training_command_start",
                    wraps=qa_training_command_start) as start:
        out = io.StringIO()
        call_command("train_qa_model", str(path), "--name", "river-qa", "--base", str(tiny_qa_dir), "--epochs", "2",
                     "--batch-size", "4", "--max-length", "64", "--doc-stride", "16", "--eval", str(path),
                     "--project", project.name, stdout=out, stderr=err)
        out = out.getvalue()
    start.assert_called_once()  # a job, as the project page starts one, run by (eager) Celery
    version = ModelVersion.objects.get(name="river-qa")
    job = QATrainingJob.objects.get()
    assert (job.status, job.model_version, job.project) == ("done", version, project)
    assert out.splitlines()[0] == f"Training 'river-qa' on 6 questions (2 epoch(s), lr 5e-05, batch 4): training job {job.pk}"
    assert "[" + "#" * 24 + "] 100.0% Finished." in err.getvalue().splitlines() and "[#" not in out
    assert version.kind == "question_answering" and Path(version.path, "config.json").is_file()
    assert version.metrics["train_questions"] == 6 and version.metrics["eval"]["total"] == 6
    assert "Eval: EM" in out and "model in the loop of project" in out
    project.refresh_from_db()
    assert project.qa_model == version


@pytest.mark.django_db(transaction=True)
def test_train_qa_model_refuses_bad_arguments_before_training(project, tmp_path, fast_polling):
    ModelVersion.objects.create(name="taken", kind="multiple_choice", path="x")
    path = _write(tmp_path, "train.json", SQUAD)
    with pytest.raises(CommandError, match="already registered"):
        run("train_qa_model", str(path), "--name", "taken")
    with pytest.raises(CommandError, match="Use letters"):
        run("train_qa_model", str(path), "--name", "bad name")
    with pytest.raises(CommandError, match="epochs"):
        run("train_qa_model", str(path), "--name", "ok", "--epochs", "0")
    with pytest.raises(CommandError, match="Cannot read file"):
        run("train_qa_model", str(tmp_path / "missing.json"), "--name", "ok")
    assert not QATrainingJob.objects.exists()  # every mistake above was found before a job was started
    with pytest.raises(CommandError, match=r"Training job \d+ failed: .*does not exist"):
        run("train_qa_model", str(path), "--name", "ok", "--base", str(tmp_path / "nowhere"))  # found by the worker
    assert QATrainingJob.objects.get().status == "failed"


@pytest.mark.django_db(transaction=True)
def test_train_qa_model_without_eager_celery_follows_the_worker(tmp_path, tiny_qa_dir, settings, fast_polling):
    settings.STUMPER_MODEL_DIR = tmp_path / "models"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    worker = LateWorker(qa_training_job_run)

    def send(name: str, job_id: int) -> None:
        assert name == "annotation.qa_training_job_run"
        worker.start(job_id)

    err = io.StringIO()
    with mock.patch("annotation.services.qa_models.task_enqueue", side_effect=send):
        out = io.StringIO()
        call_command("train_qa_model", str(_river(tmp_path)), "--name", "river-worker", "--base", str(tiny_qa_dir),
                     "--epochs", "1", "--max-length", "64", "--doc-stride", "16", stdout=out, stderr=err)
    worker.join()
    assert worker.ran_in == ["worker"]  # the command only started and followed the job
    job = QATrainingJob.objects.get()
    assert (job.status, job.project, job.model_version.name) == ("done", None, "river-worker")
    assert err.getvalue().splitlines()[0] == "[" + "." * 24 + "]   0.0% Waiting for a worker to start it."
    assert "Saved river-worker to " in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_train_qa_model_no_wait_only_starts_the_job(tmp_path):
    with mock.patch("annotation.services.qa_models.task_enqueue") as enqueue:
        out = run("train_qa_model", str(_river(tmp_path)), "--name", "later", "--limit", "2", "--no-wait")
    job = QATrainingJob.objects.get()
    enqueue.assert_called_once_with("annotation.qa_training_job_run", job.pk)
    assert (job.status, job.options["questions"], job.options["limit"]) == ("queued", 2, 2)
    assert out.splitlines()[-1] == f"Queued training job {job.pk}; a worker will run it"
