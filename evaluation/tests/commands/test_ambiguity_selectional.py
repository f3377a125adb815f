"""``manage.py ambiguity_selectional``: SPEC R16 end to end, a real QA model, Fisher, and input errors."""
import json
import math
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from scipy import stats

from evaluation.models import EvaluationRun
from evaluation.tests.ambiguity_data import question_record, write_r16_files
from mlcore.bias.ambiguity import read_ambiguity_jsonl, selectional_recall
from mlcore.models.qa import ExtractiveQAModel, QAExample, QASpec
from mlcore.tests.shared_data import shared_data
from modelhub.models import ModelVersion
from modelhub.services import model_version_register

KEYS = {"probe", "attribute", "n_questions", "answers_from", "model", "model_revision", "match", "tau", "groups",
        "recall", "recall_ci95", "mentions", "retrieved", "test", "pvalue", "log10_pvalue", "chi2", "dof", "chi2_pvalue",
        "chi2_log10_pvalue", "expected", "small_expected", "degenerate", "fisher_odds_ratio", "fisher_pvalue",
        "fisher_log10_pvalue"}


def _run(*args: str) -> dict:
    out = StringIO()
    call_command("ambiguity_selectional", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def _write_questions(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.mark.django_db
def test_r16_from_a_predictions_file(tmp_path):
    questions, predictions = write_r16_files(tmp_path)
    payload = _run("--questions", str(questions), "--predictions", str(predictions))
    assert set(payload) == KEYS
    assert payload["recall"] == {"female": 0.64, "male": 0.69}
    assert payload["mentions"] == {"female": 100, "male": 100} and payload["retrieved"] == {"female": 64, "male": 69}
    assert payload["chi2"] == pytest.approx(0.561104, abs=1e-6) and payload["dof"] == 1
    assert payload["pvalue"] == pytest.approx(0.453816, abs=1e-6) and payload["test"] == "chi2"
    assert payload["log10_pvalue"] == payload["chi2_log10_pvalue"] == pytest.approx(math.log10(payload["pvalue"]))
    assert payload["expected"] == [[66.5, 33.5], [66.5, 33.5]]  # rows female, male; columns found, missed
    assert payload["fisher_pvalue"] is None and payload["answers_from"] == "predictions file"
    assert payload["fisher_log10_pvalue"] is None
    low, high = payload["recall_ci95"]["male"]
    assert low < 0.69 < high


@pytest.mark.django_db
def test_json_lines_predictions_and_fisher_for_small_tables(tmp_path):
    questions = _write_questions(tmp_path / "q.jsonl", [question_record(i, f"Ann{i} Lee", f"Bob{i} Ray") for i in (1, 2, 3)])
    predictions = tmp_path / "p.jsonl"
    predictions.write_text('{"id": 1, "prediction": "Bob1 Ray"}\n{"id": 2, "prediction": "Bob2 Ray"}\n'
                           '{"id": 3, "prediction": "Ann3 Lee"}\n', encoding="utf-8")
    payload = _run("--questions", str(questions), "--predictions", str(predictions))
    assert payload["retrieved"] == {"female": 1, "male": 2} and payload["small_expected"] is True
    fisher = stats.fisher_exact([[1, 2], [2, 1]])
    assert payload["test"] == "fisher_exact" and payload["pvalue"] == pytest.approx(fisher.pvalue)
    assert payload["log10_pvalue"] == payload["fisher_log10_pvalue"] == pytest.approx(math.log10(fisher.pvalue))
    assert payload["chi2_pvalue"] == pytest.approx(stats.chi2_contingency([[1, 2], [2, 1]], correction=False).pvalue)
    # "Ray" alone is half of "Bob3 Ray": found under tau = 0.5, missed under tau = 0.75.
    predictions.write_text('{"1": "Ray", "2": "", "3": ""}', encoding="utf-8")
    assert _run("--questions", str(questions), "--predictions", str(predictions))["retrieved"]["male"] == 1
    strict = _run("--questions", str(questions), "--predictions", str(predictions), "--tau", "0.75")
    assert strict["retrieved"]["male"] == 0 and strict["tau"] == 0.75


@pytest.mark.django_db
def test_a_registered_qa_model_answers_the_questions(tmp_path, tiny_qa_dir):
    records = [question_record(i, "the cat", "my brother", context="the cat ate an apple and my brother saw the ball .")
               for i in (1, 2)]
    questions = _write_questions(tmp_path / "q.jsonl", records)
    model_version_register(name="tiny-qa", kind=ModelVersion.Kind.QUESTION_ANSWERING, path=str(tiny_qa_dir))
    payload = _run("--questions", str(questions), "--model", "tiny-qa")
    assert payload["model"] == "tiny-qa" and len(payload["model_revision"]) == 12 and payload["answers_from"] == "model"
    model = ExtractiveQAModel(QASpec(str(tiny_qa_dir), "tiny-qa"))
    answers = {q.id: p.text for q, p in zip(read_ambiguity_jsonl(questions),
                                            model.predict([QAExample(r["question"], r["context"]) for r in records]))}
    expected = selectional_recall(read_ambiguity_jsonl(questions), answers)
    assert payload["retrieved"] == dict(zip(expected.groups, expected.retrieved))
    # A checkpoint folder works as well as a registered name.
    assert _run("--questions", str(questions), "--model", str(tiny_qa_dir))["retrieved"] == payload["retrieved"]


@pytest.mark.django_db
def test_text_table(tmp_path):
    questions, predictions = write_r16_files(tmp_path)
    out = StringIO()
    call_command("ambiguity_selectional", "--questions", str(questions), "--predictions", str(predictions), stdout=out)
    text = out.getvalue()
    assert "female           100         64    0.640" in text and "chi2 = 0.561104, dof = 1, p = 0.453816" in text


@pytest.mark.django_db
def test_bad_inputs_give_a_command_error_naming_the_line(tmp_path, tiny_model_version):
    good = json.dumps(question_record(1, "Ann Lee", "Bob Ray"))
    files = {
        "malformed": good + "\n" + '{"id": 2, "name": "x",\n',
        "missing_field": good + "\n" + json.dumps({"id": 2, "name": "x", "question": "Who?", "context": ""}) + "\n",
        "empty": "\n",
    }
    paths = {name: _write_questions(tmp_path / name, []) for name in files}
    for name, text in files.items():
        paths[name].write_text(text, encoding="utf-8")
    questions, predictions = write_r16_files(tmp_path)
    bad_predictions = tmp_path / "bad_predictions.jsonl"
    bad_predictions.write_text('{"id": 1, "prediction": "x"}\n{"id": 2, "prediction": 3}\n', encoding="utf-8")
    short = tmp_path / "short.json"
    short.write_text('{"1": "x", "101": "y"}', encoding="utf-8")
    cases = [
        (["--questions", str(paths["malformed"]), "--predictions", str(predictions)], r"malformed: line 2: not an ambiguity record"),
        (["--questions", str(paths["missing_field"]), "--predictions", str(predictions)], r"line 2: .*'options'"),
        (["--questions", str(paths["empty"]), "--predictions", str(predictions)], "the file has no questions"),
        (["--questions", str(tmp_path / "nope"), "--predictions", str(predictions)], "Cannot read the questions file"),
        (["--questions", str(questions), "--predictions", str(bad_predictions)], r"line 2: \"prediction\" must be a string"),
        (["--questions", str(questions), "--predictions", str(short)], r"ids not in the questions file: 101; no answer for question\(s\) 2, 3"),
        (["--questions", str(questions), "--model", "no-such-model"], "Unknown model 'no-such-model'"),
        (["--questions", str(questions), "--model", tiny_model_version.name], "is of kind multiple_choice"),
    ]
    models_before = ModelVersion.objects.count()
    for args, message in cases:
        with pytest.raises(CommandError, match=message):
            call_command("ambiguity_selectional", *args)
    assert EvaluationRun.objects.count() == 0 and ModelVersion.objects.count() == models_before


@pytest.mark.django_db
def test_the_shared_question_file_with_first_option_answers(tmp_path):
    path = shared_data("ambiguity", "doubly_eponymous.json_gender_balanced.bert")
    predictions = tmp_path / "first.json"
    predictions.write_text(json.dumps({str(q.id): q.options[0].name for q in read_ambiguity_jsonl(path)}),
                           encoding="utf-8")
    payload = _run("--questions", str(path), "--predictions", str(predictions))
    assert payload["n_questions"] == 263 and payload["mentions"] == {"female": 273, "male": 281}
    assert payload["retrieved"]["female"] + payload["retrieved"]["male"] >= 263  # every first option is found
    assert 0 < payload["pvalue"] <= 1
