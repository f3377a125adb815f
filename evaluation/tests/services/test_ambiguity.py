"""The ambiguity probes' services: selectional (model or predictions) and retrieval (passages given
directly or a project's), and their report sections."""
import json

import pytest

from evaluation.reports.sections import check_section
from evaluation.services.ambiguity import (
    AmbiguityInputError,
    ambiguity_retrieval,
    ambiguity_retrieval_section,
    ambiguity_selectional,
    ambiguity_selectional_section,
    questions_read,
)
from evaluation.tests.ambiguity_data import BIOGRAPHIES, make_project, question_record, write_r16_files
from mlcore.bias.ambiguity_data import UNQOVER_OCCUPATIONS
from mlcore.bias.gender import LexiconLookup
from mlcore.bias.retrieval import Passage
from mlcore.models.qa import QASpec
from modelhub.models import ModelVersion
from modelhub.services import model_version_register


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


PASSAGES = [Passage(i, title, text) for i, (title, text) in enumerate(BIOGRAPHIES.items())]


LOOKUP = LexiconLookup({"florence": "female", "mary": "female", "sally": "female", "yuri": "male", "neil": "male",
                        "walt": "male"}, "test names")


def test_passages_given_directly_with_the_embedded_occupations():
    steps = []
    result = ambiguity_retrieval(passages=PASSAGES, lookup=LOOKUP, k=5,
                                 progress=lambda done, total, stage: steps.append((done, total, stage)))
    assert len(result.questions) == len(UNQOVER_OCCUPATIONS) == 70
    rows = {o.occupation: o for o in result.ambiguity.occupations}
    assert (rows["nurse"].female, rows["nurse"].male, rows["nurse"].unknown) == (2, 1, 1)  # Paris is unknown
    assert (rows["astronaut"].female, rows["astronaut"].male) == (1, 1) and rows["pilot"].disparity == -1
    assert rows["banker"].female + rows["banker"].male + rows["banker"].unknown == 0
    assert result.ambiguity.lookup == "test names" and result.reader is None
    assert steps[0][:2] == (0, 71) and steps[-1][0] <= steps[-1][1] and steps[1][2] == "Retrieving passages"


def test_invalid_settings_are_refused():
    for kwargs, message in [({"passages": []}, "no passages"), ({"passages": PASSAGES, "k": 0}, "k must"),
                            ({"passages": PASSAGES, "baseline_female_share": 0.0}, "between 0 and 1"),
                            ({"passages": PASSAGES, "occupations": ()}, "no occupations")]:
        with pytest.raises(AmbiguityInputError, match=message):
            ambiguity_retrieval(**kwargs)


@pytest.mark.django_db
def test_report_section_over_a_project(instructor):
    project = make_project(instructor)
    section = ambiguity_retrieval_section(model_version=None, project=project)
    assert check_section("ambiguity_retrieval", section) == section and section["available"]
    assert section["summary"]["passages"] == 6 and section["summary"]["k"] == 100  # "Paris" is discarded
    assert section["summary"]["retriever"].startswith("BM25") and "reader" not in section["summary"]
    chart = section["charts"]["disparity"]
    assert chart["kind"] == "diverging_bar" and len(chart["items"]) == 16  # 8 most female + 8 most male
    assert chart["items"][0]["value"] >= chart["items"][-1]["value"]
    disparity = section["tables"]["disparity"]
    assert len(disparity["rows"]) == 70 and disparity["columns"][-2:] == ["D", "D_excess"]
    ids = {str(pk) for pk in project.articles.values_list("paragraphs__id", flat=True)}
    assert {row[2] for row in section["tables"]["passages"]["rows"]} <= ids
    assert "not independent" in section["note"] and "gender-guesser" in section["note"]


@pytest.mark.django_db
def test_report_section_reads_with_a_qa_model(instructor, tiny_qa_dir, tiny_model_version):
    project = make_project(instructor)
    qa = model_version_register(name="tiny-qa", kind=ModelVersion.Kind.QUESTION_ANSWERING, path=str(tiny_qa_dir))
    section = ambiguity_retrieval_section(model_version=qa, project=project)
    assert section["summary"]["reader"] == "tiny-qa" and len(section["tables"]["reader"]["rows"]) == 70
    reader_total = sum(section["summary"][f"reader_{g}"] for g in ("male", "female", "neutral"))
    assert reader_total == 70
    # A multiple-choice model cannot read passages: the section is computed without a reader.
    assert "reader" not in ambiguity_retrieval_section(model_version=tiny_model_version, project=project)["summary"]


@pytest.mark.django_db
def test_report_section_without_passages(instructor):
    from annotation.services.projects import project_create

    assert ambiguity_retrieval_section(model_version=None) is None
    empty = ambiguity_retrieval_section(model_version=None, project=project_create(owner=instructor, name="empty"))
    assert empty["available"] is False and "no passages" in empty["note"]
    given = ambiguity_retrieval_section(model_version=None, passages=PASSAGES)
    assert given["summary"]["passages"] == 7


def test_report_section_says_when_the_occupations_and_passages_differ_in_script():
    from mlcore.bias.retrieval import Passage

    persian = [Passage(1, "مریم میرزاخانی", "مریم میرزاخانی ریاضی‌دان ایرانی بود.")]
    section = ambiguity_retrieval_section(model_version=None, passages=persian)
    assert section["available"] is False and not section.get("charts")
    assert "Latin script but the passages are in Arabic script" in section["note"]
    assert "Upload one in the report form" in section["note"]
