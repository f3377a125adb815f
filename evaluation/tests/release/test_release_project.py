"""A span project's release: the squad_v2 schema, loaded with ``datasets`` and compared with the database."""
import datasets
import pytest
from huggingface_hub import DatasetCard

from annotation.models import QuestionFlag, SpanQuestion
from annotation.tests.factories import make_project
from evaluation.selectors.releases import ReleaseError
from evaluation.services.releases import release_export, release_options_clean
from evaluation.tests.factories import span_project
from evaluation.tests.release.test_release_round import load
from modelhub.models import ModelVersion

pytestmark = pytest.mark.django_db


@pytest.fixture
def project(instructor):
    qa = ModelVersion.objects.create(name="qa-in-the-loop", kind="question_answering", path="unused", revision="r7")
    return span_project(instructor, qa)


def _export(tmp_path, project, **options):
    out = tmp_path / "release"
    release_export(out_dir=out, options=release_options_clean(**options), project=project)
    return load(out), DatasetCard.load(out / "README.md")


def test_project_release_has_the_squad_v2_schema_and_the_database_rows(tmp_path, project):
    loaded, card = _export(tmp_path, project, fields="predictions,fooled_live,agreement", license="cc-by-sa-4.0")
    assert sorted(loaded) == ["train", "validation"]
    features = loaded["train"].features
    assert features["answers"] == {"text": datasets.List(datasets.Value("string")),
                                   "answer_start": datasets.List(datasets.Value("int32"))}
    submitted = {q.qid: q for q in SpanQuestion.objects.filter(project=project, status="submitted")
                 .select_related("paragraph__article").prefetch_related("answers")}
    seen = []
    for split in loaded:
        for row in loaded[split]:
            q = submitted[row["id"]]
            seen.append(row["id"])
            assert split == q.paragraph.article.split
            assert (row["question"], row["context"], row["title"]) == (q.question, q.paragraph.context,
                                                                       q.paragraph.article.title)
            assert row["answers"]["text"] == [a.text for a in q.answers.all()]
            assert all(row["context"][s:s + len(t)] == t for s, t in zip(row["answers"]["answer_start"],
                                                                         row["answers"]["text"]))
            assert row["model"] == ("qa-in-the-loop" if q.qa_model_version_id else None)
    assert sorted(seen) == sorted(submitted) and "draft" not in seen
    assert card.data.task_categories == ["question-answering"] and card.data.task_ids == ["extractive-qa"]
    assert card.data.license == "cc-by-sa-4.0" and "rajpurkar-etal-2018-know" in card.text
    assert "| unanswerable | 4 | 2 | 6 |" in card.text


def test_open_flags_keep_a_question_out_unless_status_all(tmp_path, project, instructor):
    flagged = SpanQuestion.objects.get(project=project, qid="q0")
    QuestionFlag.objects.create(question=flagged, raised_by=instructor, proposal="remove_question")
    loaded, card = _export(tmp_path, project)
    assert "q0" not in loaded["train"]["id"] and "open flag: 1" in card.text
    (tmp_path / "all").mkdir()
    everything, _ = _export(tmp_path / "all", project, status="all")
    assert "q0" in everything["train"]["id"]


def test_project_bad_input(tmp_path, instructor, project):
    empty = make_project(instructor, name="empty")
    with pytest.raises(ReleaseError, match="Project empty has no submitted questions"):
        release_export(out_dir=tmp_path / "a", options=release_options_clean(), project=empty)
    with pytest.raises(ReleaseError, match="no cross-validation folds"):
        release_export(out_dir=tmp_path / "b", options=release_options_clean(split_by="folds"), project=project)
    with pytest.raises(ReleaseError, match="fooled_cv is a field of rounds"):
        release_export(out_dir=tmp_path / "c", options=release_options_clean(fields="fooled_cv"), project=project)
    assert list(tmp_path.iterdir()) == []


def test_project_author_split_keeps_imported_questions_apart(tmp_path, project):
    loaded, _ = _export(tmp_path, project, split_by="author")
    assert sum(len(loaded[s]) for s in loaded) == 12
    assert {row["author"] for s in loaded for row in loaded[s]} == {"unknown"}
