"""A round's release loads with ``datasets``, matches the database, and its card parses on the Hub's schema."""
from collections import defaultdict

import datasets
import pytest
from huggingface_hub import DatasetCard

from collector.models import CVPrediction, Prediction, Question, ScoringRun
from evaluation.services.releases import release_export, release_options_clean
from evaluation.tests.factories import finished_report

pytestmark = pytest.mark.django_db

ALL_FIELDS = "predictions,fooled_live,fooled_cv,agreement,weights"


def _export(tmp_path, round_, **options):
    out = tmp_path / "release"
    result = release_export(out_dir=out, options=release_options_clean(**options), round_=round_)
    return result, load(out), DatasetCard.load(out / "README.md")


def load(folder):
    """``load_dataset`` with a fresh cache: its cache key does not change with the folder's path
    alone, so two exports in one test session would otherwise read the first one's rows."""
    return datasets.load_dataset(str(folder), cache_dir=str(folder.parent / "hf-cache"))


def _rows(loaded):
    return {split: list(loaded[split]) for split in loaded}


def test_accepted_questions_by_author_with_every_field(tmp_path, release_round, instructor):
    report = finished_report(instructor, round_=release_round)
    result, loaded, card = _export(tmp_path, release_round, fields=ALL_FIELDS, license="cc-by-4.0")
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
    _, loaded, _ = _export(tmp_path, release_round, status="all")
    split_of_author = {}
    for split, rows in _rows(loaded).items():
        for row in rows:
            assert split_of_author.setdefault(row["author"], split) == split
    assert len(split_of_author) == 4 and len(loaded) >= 2


def test_status_all_adds_questions_not_yet_accepted_but_never_rejected_ones(tmp_path, release_round):
    _, loaded, card = _export(tmp_path, release_round, status="all", pseudonymise=False)
    rows = [row for split_rows in _rows(loaded).values() for row in split_rows]
    expected = Question.objects.filter(round=release_round).exclude(status__in=["rejected", "appealed"])
    assert sorted(r["id"] for r in rows) == sorted(expected.values_list("pk", flat=True))
    assert {r["status"] for r in rows} == {"accepted", "review"}
    assert {r["author"] for r in rows} == {"alice", "bob", "cy", "dee"}
    assert "not (yet) accepted" in card.text


def test_folds_split_follows_the_stored_cross_validation_folds(tmp_path, release_round):
    _, loaded, _ = _export(tmp_path, release_round, split_by="folds")
    run = ScoringRun.objects.get(round=release_round, kind="cross_validation")
    fold = dict(CVPrediction.objects.filter(run=run, trial=0).values_list("question_id", "fold"))
    assert sorted(loaded) == ["fold_0", "fold_1"]
    for split, rows in _rows(loaded).items():
        assert all(f"fold_{fold[row['id']]}" == split for row in rows)
