"""Management commands: import_articles, import_squad, squad_eval, train_qa_model (export_squad is evaluation's)."""
import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotation.models import Article, Paragraph, SpanQuestion
from annotation.selectors.exports import project_squad_dict
from annotation.tests.factories import SQUAD
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


def test_train_qa_model_registers_a_version_and_attaches_it(project, tmp_path, tiny_qa_dir, settings):
    settings.STUMPER_MODEL_DIR = tmp_path / "models"
    context = "the river reaches the sea at khartoum ."
    qas = [{"id": f"q{i}", "question": "where does the river reach the sea ?",
            "answers": [{"text": "khartoum", "answer_start": context.index("khartoum")}], "is_impossible": False}
           for i in range(6)]
    data = {"version": "v2.0", "data": [{"title": "t", "paragraphs": [{"context": context, "qas": qas}]}]}
    path = _write(tmp_path, "train.json", data)
    out = run("train_qa_model", str(path), "--name", "river-qa", "--base", str(tiny_qa_dir), "--epochs", "2",
              "--batch-size", "4", "--max-length", "64", "--doc-stride", "16", "--eval", str(path),
              "--project", project.name)
    version = ModelVersion.objects.get(name="river-qa")
    assert version.kind == "question_answering" and Path(version.path, "config.json").is_file()
    assert version.metrics["train_questions"] == 6 and version.metrics["eval"]["total"] == 6
    assert "Eval: EM" in out and "model in the loop of project" in out
    project.refresh_from_db()
    assert project.qa_model == version


def test_train_qa_model_refuses_bad_arguments_before_training(project, tmp_path):
    ModelVersion.objects.create(name="taken", kind="multiple_choice", path="x")
    path = _write(tmp_path, "train.json", SQUAD)
    with pytest.raises(CommandError, match="already registered"):
        run("train_qa_model", str(path), "--name", "taken")
    with pytest.raises(CommandError, match="Use letters"):
        run("train_qa_model", str(path), "--name", "bad name")
    with pytest.raises(CommandError, match="epochs"):
        run("train_qa_model", str(path), "--name", "ok", "--epochs", "0")
    with pytest.raises(CommandError, match="does not exist"):
        run("train_qa_model", str(path), "--name", "ok", "--base", str(tmp_path / "nowhere"))
