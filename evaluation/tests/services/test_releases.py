"""Dataset releases: a round's and a project's load with ``datasets`` and match the database (their
cards parse on the Hub's schema); a release that cannot be made says what is missing and leaves no file."""
from collections import defaultdict
from unittest import mock

import datasets
import pytest
from huggingface_hub import DatasetCard

from annotation.models import QuestionFlag, SpanQuestion
from annotation.tests.factories import make_project
from collector.models import CVPrediction, Prediction, Question, ScoringRun
from evaluation.selectors.releases import ReleaseError
from evaluation.services.releases import release_export, release_options_clean
from evaluation.tests.factories import finished_report, load_release, span_project
from modelhub.models import ModelVersion

pytestmark = pytest.mark.django_db


ALL_FIELDS = "predictions,fooled_live,fooled_cv,agreement,weights"


def _export_round(tmp_path, round_, **options):
    out = tmp_path / "release"
    result = release_export(out_dir=out, options=release_options_clean(**options), round_=round_)
    return result, load_release(out), DatasetCard.load(out / "README.md")


def _rows(loaded):
    return {split: list(loaded[split]) for split in loaded}


def test_accepted_questions_by_author_with_every_field(tmp_path, release_round, instructor):
    report = finished_report(instructor, round_=release_round)
    result, loaded, card = _export_round(tmp_path, release_round, fields=ALL_FIELDS, license="cc-by-4.0")
    accepted = {q.pk: q for q in Question.objects.filter(round=release_round, status="accepted")
                .select_related("author")}
    rows = [row for split_rows in _rows(loaded).values() for row in split_rows]
    assert sorted(row["id"] for row in rows) == sorted(accepted) and len(accepted) == 16
    features = loaded["train"].features
    assert features["answer"].names == ["A", "B", "C", "D"]
    category_names = features["categories"].feature.names
    live = {p.question_id: p for p in Prediction.objects.filter(question__round=release_round, kind="live")}
    cv_run = ScoringRun.objects.get(round=release_round, kind="cross_validation")
    cv = defaultdict(list)
    for p in CVPrediction.objects.filter(run=cv_run):
        cv[p.question_id].append(p.correct)
    for row in rows:
        q = accepted[row["id"]]
        assert (row["prompt"], row["choices"], row["answer"], row["status"]) == (q.prompt, q.choices, q.correct_index,
                                                                                 "accepted")
        assert [category_names[i] for i in row["categories"]] == q.categories
        assert row["author"].startswith("author-") and q.author.username not in row["author"]
        assert row["live_prediction"] == live[q.pk].predicted_index and row["fooled_live"] == live[q.pk].fooled
        assert row["fooled_cv"] == pytest.approx(1 - sum(cv[q.pk]) / len(cv[q.pk]))
        assert row["validations"] == q.validations.count() and row["validators_agreeing"] == row["validations"]
        assert len(row["weights"]) == 4 and all(w > 0 for w in row["weights"])
    assert card.data.license == "cc-by-4.0" and card.data.task_categories == ["multiple-choice"]
    assert card.data.language == ["en"] and card.data.size_categories == ["n<1K"]
    assert [c["split"] for c in card.data.configs[0]["data_files"]] == list(loaded)
    fooled = sum(live[q].fooled for q in accepted)
    assert f"{fooled} of 16" in card.text and f"evaluation report {report.pk}" in card.text
    assert "Answer-only baseline (prompts blanked" in card.text and "Cohen's kappa" in card.text
    assert "chen-etal-2019-codah" in card.text and result.splits == {s: len(loaded[s]) for s in loaded}


def test_no_author_is_in_two_splits(tmp_path, release_round):
    """alice (12), bob, cy, dee (2 each) remain once eve's rejected and appealed questions are left out."""
    _, loaded, _ = _export_round(tmp_path, release_round, status="all")
    split_of_author = {}
    for split, rows in _rows(loaded).items():
        for row in rows:
            assert split_of_author.setdefault(row["author"], split) == split
    assert len(split_of_author) == 4 and len(loaded) >= 2


def test_status_all_adds_questions_not_yet_accepted_but_never_rejected_ones(tmp_path, release_round):
    _, loaded, card = _export_round(tmp_path, release_round, status="all", pseudonymise=False)
    rows = [row for split_rows in _rows(loaded).values() for row in split_rows]
    expected = Question.objects.filter(round=release_round).exclude(status__in=["rejected", "appealed"])
    assert sorted(r["id"] for r in rows) == sorted(expected.values_list("pk", flat=True))
    assert {r["status"] for r in rows} == {"accepted", "review"}
    assert {r["author"] for r in rows} == {"alice", "bob", "cy", "dee"}
    assert "not (yet) accepted" in card.text


def test_folds_split_follows_the_stored_cross_validation_folds(tmp_path, release_round):
    _, loaded, _ = _export_round(tmp_path, release_round, split_by="folds")
    run = ScoringRun.objects.get(round=release_round, kind="cross_validation")
    fold = dict(CVPrediction.objects.filter(run=run, trial=0).values_list("question_id", "fold"))
    assert sorted(loaded) == ["fold_0", "fold_1"]
    for split, rows in _rows(loaded).items():
        assert all(f"fold_{fold[row['id']]}" == split for row in rows)


@pytest.fixture
def project(instructor):
    qa = ModelVersion.objects.create(name="qa-in-the-loop", kind="question_answering", path="unused", revision="r7")
    return span_project(instructor, qa)


def _export_project(tmp_path, project, **options):
    out = tmp_path / "release"
    release_export(out_dir=out, options=release_options_clean(**options), project=project)
    return load_release(out), DatasetCard.load(out / "README.md")


def test_project_release_has_the_squad_v2_schema_and_the_database_rows(tmp_path, project):
    loaded, card = _export_project(tmp_path, project, fields="predictions,fooled_live,agreement", license="cc-by-sa-4.0")
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
    loaded, card = _export_project(tmp_path, project)
    assert "q0" not in loaded["train"]["id"] and "open flag: 1" in card.text
    (tmp_path / "all").mkdir()
    everything, _ = _export_project(tmp_path / "all", project, status="all")
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
    loaded, _ = _export_project(tmp_path, project, split_by="author")
    assert sum(len(loaded[s]) for s in loaded) == 12
    assert {row["author"] for s in loaded for row in loaded[s]} == {None}


def _fails(tmp_path, match, *, round_=None, project=None, **options):
    out = tmp_path / "release"
    with pytest.raises(ReleaseError, match=match) as caught:
        release_export(out_dir=out, options=release_options_clean(**options), round_=round_, project=project)
    assert list(tmp_path.iterdir()) == [], "nothing may be written when a release fails"
    return caught.value


def test_an_empty_round_says_there_is_nothing_to_release(tmp_path, round_):
    _fails(tmp_path, "Round r1 has no questions yet", round_=round_)


def test_an_unvalidated_round_says_what_is_missing(tmp_path, round_, student, fake_model):
    from collector.services.questions import question_submit
    from collector.tests.factories import question_data

    question_submit(user=student, round_id=round_.pk, **question_data())
    error = _fails(tmp_path, r"no accepted questions yet \(1 awaiting validation\).*2 validator\(s\).*not yet accepted too\.$",
                   round_=round_)
    # Each interface names the way out in its own words: the command's flag, the API's parameter, the page's choice.
    assert error.fix == ("status", "all") and error.field == "status" and "--status" not in error.message


def test_a_round_with_only_rejected_questions_has_nothing_to_release(tmp_path, release_round):
    Question.objects.filter(round=release_round).update(status=Question.Status.REJECTED)
    _fails(tmp_path, "only rejected questions", round_=release_round, status="all")


def test_an_unknown_license_is_refused_with_close_hub_ids():
    with pytest.raises(ReleaseError, match=r"Unknown license 'cc-by-sa'.*Did you mean"):
        release_options_clean(license="cc-by-sa")


@pytest.mark.parametrize("options, match", [
    ({"status": "rejected"}, "Unknown status"), ({"split_by": "random"}, "Unknown split method"),
    ({"fields": "predictions,colour"}, r"Unknown field\(s\) colour"),
])
def test_unknown_options_are_refused(options, match):
    with pytest.raises(ReleaseError, match=match):
        release_options_clean(**options)


def test_folds_and_fooled_cv_need_a_finished_scoring_run(tmp_path, release_round):
    ScoringRun.objects.filter(round=release_round, kind="cross_validation").update(status=ScoringRun.Status.FAILED)
    _fails(tmp_path, "no finished cross-validation scoring run", round_=release_round, split_by="folds")
    _fails(tmp_path, "fooled_cv needs a finished cross-validation", round_=release_round, fields="fooled_cv")


def test_weights_need_a_finished_evaluation_report(tmp_path, release_round):
    _fails(tmp_path, "weights field needs a finished evaluation report", round_=release_round, fields="weights")


def test_a_non_empty_output_folder_is_left_alone(tmp_path, release_round):
    out = tmp_path / "release"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(ReleaseError, match="already exists"):
        release_export(out_dir=out, options=release_options_clean(), round_=release_round)
    assert [p.name for p in out.iterdir()] == ["notes.txt"] and len(list(tmp_path.iterdir())) == 1


def test_a_failure_while_writing_leaves_nothing_half_written(tmp_path, release_round):
    import datasets

    real = datasets.Dataset.to_parquet
    calls = []

    def fail_on_second_split(self, path, *args, **kwargs):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(self, path, *args, **kwargs)

    with mock.patch.object(datasets.Dataset, "to_parquet", fail_on_second_split), pytest.raises(
            ReleaseError, match="Cannot write .*No space left on device; nothing was written"):
        release_export(out_dir=tmp_path / "release", options=release_options_clean(), round_=release_round)
    assert len(calls) == 2 and list(tmp_path.iterdir()) == []
