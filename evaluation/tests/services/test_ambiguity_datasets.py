"""The ambiguity probes' inputs of a project report: uploads (validated, all or nothing), the owner's
choice stored with the report, and the probe sections computed on that choice."""
import json

import pytest
from django.core.exceptions import ValidationError

from evaluation.models import AmbiguityDataset, EvaluationRun
from evaluation.services import ambiguity as ambiguity_services
from evaluation.services import reports as report_services
from evaluation.services.ambiguity_datasets import (
    OCCUPATIONS,
    QUESTIONS,
    Upload,
    ambiguity_choice_clean,
    ambiguity_dataset_create,
    ambiguity_sections,
)
from evaluation.services.reports import evaluation_start_project_with_inputs
from evaluation.tests.ambiguity_data import make_project, question_record, with_qa_model

pytestmark = pytest.mark.django_db


QUESTIONS_TEXT = "".join(json.dumps(question_record(i, f"Ann Lee{i}", f"Bob Ray{i}")) + "\n" for i in (1, 2, 3))


PERSIAN_LIST = "# Persian occupations\n[p_act] پرستار\n[p_act] خلبان\n"


def upload(text: str, name: str = "file.txt") -> Upload:
    return Upload(name, text.encode("utf-8"))


@pytest.fixture
def project(instructor):
    return make_project(instructor)


def test_uploads_are_validated_whole_with_the_line_of_the_error(project, instructor, settings):
    bad_questions = QUESTIONS_TEXT + '{"id": 4, "name": "x"}\n'
    with pytest.raises(ValidationError, match=r"q\.jsonl: line 4: not an ambiguity record"):
        ambiguity_dataset_create(project=project, kind=QUESTIONS, upload=upload(bad_questions, "q.jsonl"))
    with pytest.raises(ValidationError, match=r"occ, line 4: expected '\[p_act\] was a\(n\) <occupation>'"):
        ambiguity_dataset_create(project=project, kind=OCCUPATIONS, upload=upload(PERSIAN_LIST + "nurse\n", "occ"))
    with pytest.raises(ValidationError, match=r"occ is not UTF-8 text \(byte 8\)"):
        ambiguity_dataset_create(project=project, kind=OCCUPATIONS, upload=Upload("occ", b"[p_act] \xff\n"))
    settings.STUMPER_IMPORT_MAX_BYTES = 10
    with pytest.raises(ValidationError, match="larger than 10 bytes"):
        ambiguity_dataset_create(project=project, kind=OCCUPATIONS, upload=upload(PERSIAN_LIST, "occ"))
    assert not AmbiguityDataset.objects.exists()


def test_an_upload_is_stored_once_with_what_it_holds(project, instructor):
    first = ambiguity_dataset_create(project=project, kind=OCCUPATIONS, upload=upload(PERSIAN_LIST, "fa.txt"),
                                     user=instructor)
    again = ambiguity_dataset_create(project=project, kind=OCCUPATIONS, upload=upload(PERSIAN_LIST, "copy.txt"))
    assert again.pk == first.pk and AmbiguityDataset.objects.count() == 1
    assert (first.items, first.script, first.name, first.created_by) == (2, "Arabic", "fa.txt", instructor)
    questions = ambiguity_dataset_create(project=project, kind=QUESTIONS, upload=upload(QUESTIONS_TEXT, "q.jsonl"))
    assert (questions.items, questions.script) == (3, "")


def test_the_choice_defaults_to_the_newest_upload_else_the_server_and_unqover(project, instructor, other_instructor):
    assert ambiguity_choice_clean(project=project) == {}
    assert ambiguity_choice_clean(project=project, questions="none") == {"questions": "none"}
    fa = ambiguity_dataset_create(project=project, kind=OCCUPATIONS, upload=upload(PERSIAN_LIST, "fa.txt"))
    chosen = ambiguity_choice_clean(project=project)
    assert chosen == {"occupations": {"dataset_id": fa.pk, "name": "fa.txt", "sha256": fa.sha256, "items": 2}}
    assert ambiguity_choice_clean(project=project, occupations="unqover", questions="server") == {}
    assert ambiguity_choice_clean(project=project, occupations=fa.pk)["occupations"]["dataset_id"] == fa.pk
    other = make_project(other_instructor, name="other")
    theirs = ambiguity_dataset_create(project=other, kind=QUESTIONS, upload=upload(QUESTIONS_TEXT))
    for field, value in (("ambiguity_questions", theirs.pk), ("ambiguity_questions", fa.pk),
                         ("occupations", "english"), ("ambiguity_questions", "unqover")):
        kind = "questions" if field == "ambiguity_questions" else "occupations"
        with pytest.raises(ValidationError) as caught:
            ambiguity_choice_clean(project=project, **{kind: value})
        assert field in caught.value.message_dict and "the id of one of this project's uploads" in str(caught.value)


def test_starting_with_uploads_is_all_or_nothing(project, instructor):
    with_qa_model(project)
    with pytest.raises(ValidationError, match="line 1"):
        evaluation_start_project_with_inputs(project=project, user=instructor,
                                             occupations_upload=upload(PERSIAN_LIST, "good"),
                                             questions_upload=upload("not json\n", "bad.jsonl"))
    assert not AmbiguityDataset.objects.exists() and not EvaluationRun.objects.exists()
    run = evaluation_start_project_with_inputs(project=project, user=instructor,
                                               occupations_upload=upload(PERSIAN_LIST, "fa.txt"),
                                               questions_upload=upload(QUESTIONS_TEXT, "q.jsonl"))
    assert run.snapshot["ambiguity"]["occupations"]["name"] == "fa.txt"
    assert run.snapshot["ambiguity"]["questions"]["items"] == 3
    # A refused start (one report at a time) keeps nothing of a new upload either.
    with pytest.raises(report_services.EvaluationRefused):
        evaluation_start_project_with_inputs(project=project, user=instructor,
                                             occupations_upload=upload("[p_act] was a nurse\n", "en.txt"))
    assert AmbiguityDataset.objects.count() == 2 and EvaluationRun.objects.count() == 1


def test_the_sections_run_on_the_inputs_the_report_was_started_with(project, instructor, settings, monkeypatch):
    settings.STUMPER_AMBIGUITY_QUESTIONS = ""
    seen = {}

    def selectional(*, model_version, progress, questions=None, source=""):
        seen.update(questions=[q.id for q in questions], source=source)
        return None

    monkeypatch.setattr(ambiguity_services, "ambiguity_selectional_section", selectional)
    en_list = "[p_act] was a nurse\n[p_act] was an astronaut\n"
    run = evaluation_start_project_with_inputs(project=with_qa_model(project), user=instructor,
                                               questions_upload=upload(QUESTIONS_TEXT, "q.jsonl"),
                                               occupations_upload=upload(en_list, "two.txt"))
    run.model_version = None  # the registry's QA model has no weights: the retrieval probe runs without a reader
    sections = ambiguity_sections(run=run, progress=lambda stage, fraction: None)
    assert seen["questions"] == [1, 2, 3] and seen["source"].startswith("q.jsonl (3 questions, uploaded ")
    retrieval = sections["ambiguity_retrieval"]
    assert retrieval["available"] and retrieval["summary"]["occupations"] == 2
    assert retrieval["summary"]["occupation_list"].startswith("two.txt (2 occupations, Latin script")
    assert {row[0] for row in retrieval["tables"]["disparity"]["rows"]} == {"nurse", "astronaut"}


def test_skipped_and_missing_probes_say_why(project, instructor, settings):
    settings.STUMPER_AMBIGUITY_QUESTIONS = ""
    run = report_services.evaluation_start_project(project=project, user=instructor)
    sections = ambiguity_sections(run=run, progress=lambda stage, fraction: None)
    assert "no question set was uploaded or chosen" in sections["ambiguity_selectional"]["note"]
    assert sections["ambiguity_retrieval"]["available"]  # UnQover's English list over English biographies
    EvaluationRun.objects.all().delete()
    skipped = evaluation_start_project_with_inputs(project=project, user=instructor, questions="none")
    assert "Skipped" in ambiguity_sections(run=skipped, progress=lambda *a: None)["ambiguity_selectional"]["note"]


def test_a_persian_project_needs_a_persian_occupation_list(instructor):
    from annotation.models import Article, Paragraph
    from annotation.services.projects import project_create

    project = project_create(owner=instructor, name="fa-bios")
    for position, (title, text) in enumerate({"مریم میرزاخانی": "مریم میرزاخانی ریاضی‌دان و استاد دانشگاه بود.",
                                              "علی دایی": "علی دایی فوتبالیست و مربی است."}.items()):
        article = Article.objects.create(project=project, title=title, position=position)
        Paragraph.objects.create(article=article, position=0, context=text)
    run = report_services.evaluation_start_project(project=project, user=instructor)
    default = ambiguity_sections(run=run, progress=lambda *a: None)["ambiguity_retrieval"]
    assert not default["available"] and "Latin script but the passages are in Arabic script" in default["note"]
    EvaluationRun.objects.all().delete()
    run = evaluation_start_project_with_inputs(project=project, user=instructor,
                                               occupations_upload=upload("[p_act] استاد\n[p_act] مربی\n", "fa.txt"))
    persian = ambiguity_sections(run=run, progress=lambda *a: None)["ambiguity_retrieval"]
    # Found in the passages; gender-guesser knows no Persian first name, and the section says that.
    assert not persian["available"] and "retrieved 2 passages, but none is about a man or a woman" in persian["note"]


def test_an_uploaded_question_set_is_answered_by_the_projects_qa_model(project, instructor, settings, tmp_path):
    from mlcore.testing import build_tiny_bert_qa
    from modelhub.models import ModelVersion
    from modelhub.services import model_version_register

    settings.STUMPER_AMBIGUITY_QUESTIONS = ""
    project.qa_model = model_version_register(name="tiny-qa", kind=ModelVersion.Kind.QUESTION_ANSWERING,
                                              path=str(build_tiny_bert_qa(tmp_path / "qa")))
    project.save()
    run = evaluation_start_project_with_inputs(project=project, user=instructor,
                                               questions_upload=upload(QUESTIONS_TEXT, "q.jsonl"))
    section = ambiguity_sections(run=run, progress=lambda *a: None)["ambiguity_selectional"]
    assert section["available"], section.get("note")
    assert section["summary"]["questions"] == 3 and section["summary"]["model"] == "tiny-qa"
    assert section["summary"]["question_set"].startswith("q.jsonl (3 questions")
    assert {row[0]: row[1] for row in section["tables"]["recall"]["rows"]} == {"female": 3, "male": 3}
