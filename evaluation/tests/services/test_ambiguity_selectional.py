"""Selectional-ambiguity services: model or predictions, and the report section."""
import json

import pytest

from evaluation.reports.sections import check_section
from evaluation.services.ambiguity import (
    AmbiguityInputError,
    ambiguity_selectional,
    ambiguity_selectional_section,
    questions_read,
)
from evaluation.tests.ambiguity_data import question_record, write_r16_files
from mlcore.models.qa import QASpec
from mlcore.testing import build_tiny_bert_qa
from modelhub.models import ModelVersion
from modelhub.services import model_version_register


@pytest.fixture(scope="module")
def tiny_qa_dir(tmp_path_factory):
    return build_tiny_bert_qa(tmp_path_factory.mktemp("tiny-qa"))


@pytest.fixture
def small_questions(tmp_path):
    path = tmp_path / "q.jsonl"
    records = [question_record(i, "the cat", "my brother", context="the cat ate an apple and my brother saw the ball .")
               for i in range(1, 21)]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_exactly_one_source_of_answers(tmp_path):
    questions, _ = write_r16_files(tmp_path)
    loaded = questions_read(path=questions)
    with pytest.raises(AmbiguityInputError, match="either a QA model or a predictions file"):
        ambiguity_selectional(questions=loaded)
    with pytest.raises(AmbiguityInputError, match="either a QA model or a predictions file"):
        ambiguity_selectional(questions=loaded, qa_spec=QASpec("x", "x"), predictions={})


def test_model_answers_report_progress(small_questions, tiny_qa_dir):
    steps = []
    probe = ambiguity_selectional(questions=questions_read(path=small_questions),
                                  qa_spec=QASpec(str(tiny_qa_dir), "tiny-qa"),
                                  progress=lambda done, total, stage: steps.append((done, total)))
    assert steps == [(0, 20), (16, 20), (20, 20)]  # chunks of 16 questions
    assert len(probe.predictions) == 20 and probe.source == "model" and probe.model_name == "tiny-qa"
    assert sum(probe.result.mentions) == 40


@pytest.mark.django_db
def test_report_section(small_questions, tiny_qa_dir, settings, tiny_model_version):
    qa = model_version_register(name="tiny-qa", kind=ModelVersion.Kind.QUESTION_ANSWERING, path=str(tiny_qa_dir))
    settings.STUMPER_AMBIGUITY_QUESTIONS = ""
    assert ambiguity_selectional_section(model_version=qa) is None  # no question file configured
    settings.STUMPER_AMBIGUITY_QUESTIONS = str(small_questions)
    section = ambiguity_selectional_section(model_version=qa)
    assert check_section("ambiguity_selectional", section) == section and section["available"]
    assert section["summary"]["questions"] == 20 and section["summary"]["model"] == "tiny-qa"
    assert [row[:2] for row in section["tables"]["recall"]["rows"]] == [["female", 20], ["male", 20]]
    assert section["charts"]["recall"]["kind"] == "bar" and len(section["charts"]["recall"]["items"]) == 2
    for version in (None, tiny_model_version):
        missing = ambiguity_selectional_section(model_version=version)
        assert missing["available"] is False and "question-answering model" in missing["note"]
