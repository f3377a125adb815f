"""The release pieces without Django: licenses, splits, pseudonyms, card, Parquet folder."""
from __future__ import annotations

from pathlib import Path

import datasets
import numpy as np
import pytest
from huggingface_hub import DatasetCard

from mlcore.data.release.card import CardInputs, ModelUse, Rate, Validation, render_card, size_category
from mlcore.data.release.files import ReleaseFolderError, features_for, write_release
from mlcore.data.release.licenses import UnknownLicense, UnknownSource, check_license, check_source, merged_source
from mlcore.data.release.splits import author_split, fold_split, pseudonymise

SIZES = Path(datasets.__file__).parent / "utils" / "resources" / "size_categories.json"


def test_license_ids_of_the_hub_pass_and_others_fail_with_suggestions():
    assert check_license("CC-BY-SA-4.0") == "cc-by-sa-4.0"
    with pytest.raises(UnknownLicense, match="Did you mean cc-by-sa-4.0"):
        check_license("cc-by-sa-4")
    with pytest.raises(UnknownLicense, match="repositories-licenses"):
        check_license("my own license")


def test_sources_of_imports_know_their_license_or_must_be_told_it():
    assert check_source("codah") == ("codah", "odc-by") and check_source(" pquad ") == ("pquad", "cc-by-sa-4.0")
    assert check_source("my-lab/quiz", "MIT") == ("my-lab/quiz", "mit")
    with pytest.raises(UnknownSource, match="Give the license of my-lab/quiz"):
        check_source("my-lab/quiz")
    with pytest.raises(UnknownSource, match="Invalid source dataset"):
        check_source("a/b/c", "mit")
    assert merged_source(("", ""), "") is None and merged_source(("codah", "odc-by"), "codah") == ("codah", "odc-by")
    with pytest.raises(UnknownSource, match="already holds questions imported from codah"):
        merged_source(("codah", "odc-by"), "codah", "cc-by-4.0")


def test_card_of_imported_rows_names_their_source_and_claims_no_authors_or_model():
    card = DatasetCard(render_card(_inputs(
        authors=0, unattributed=10, imported=10, imported_from="codah", source_datasets=("codah",), models=(),
        license="odc-by", validation=None, fooled_live=None,
        included="questions with status accepted only (10 of them imported, accepted at import as published)")).text)
    assert card.data.source_datasets == ["codah"] and card.data.license == "odc-by"
    assert "10 imported from `codah`" in card.text and "written with Stumper" not in card.text
    assert "- Authors: not recorded." in card.text and "Model in the loop" not in card.text
    assert "Questions were imported between" in card.text and "Written by the participants" not in card.text


@pytest.mark.parametrize("seed", range(20))
def test_no_author_is_in_two_splits(seed):
    rng = np.random.default_rng(seed)
    authors = rng.integers(0, rng.integers(1, 15), size=int(rng.integers(1, 200))).tolist()
    split = author_split(list(range(len(authors))), authors, seed=seed)
    seen: dict[int, str] = {}
    for author, name in zip(authors, split.splits):
        assert seen.setdefault(author, name) == name
    assert sum(split.counts().values()) == len(authors)
    if len(set(authors)) >= 3 and len(authors) >= 30:
        assert set(split.names) >= {"train"}


def test_author_split_follows_the_ratios_when_authors_are_many():
    authors = [i // 5 for i in range(500)]  # 100 authors of 5 questions
    counts = author_split(list(range(500)), authors, seed=1).counts()
    assert counts == {"train": 400, "validation": 50, "test": 50}


def test_author_split_refuses_bad_arguments():
    with pytest.raises(ValueError, match="ratios"):
        author_split([1, 2], ["a", "b"], ratios=(0.5, 0.5, 0.5))
    with pytest.raises(ValueError, match="unique"):
        author_split([1, 1], ["a", "b"])


def test_fold_split_names_folds_and_requires_every_item():
    split = fold_split([1, 2, 3], {1: 0, 2: 1, 3: 10})
    assert split.names == ("fold_0", "fold_1", "fold_10")
    with pytest.raises(KeyError, match="1 item"):
        fold_split([1, 2], {1: 0})


def test_pseudonyms_are_stable_distinct_and_reveal_no_ids():
    first = pseudonymise([42, 7, 42, 99], key=b"secret")
    again = pseudonymise([99, 7, 42], key=b"secret")
    assert first.mapping == again.mapping
    assert sorted(first.mapping.values()) == ["author-1", "author-2", "author-3"]
    assert not any(str(a) in name for a, name in first.mapping.items() if a > 9)


def _inputs(**changes) -> CardInputs:
    base = {
        "pretty_name": "Stumper round r1", "kind": "multiple_choice", "source": "round r1 of course NLP", "license": "cc-by-4.0",
        "language": "en", "status": "accepted", "split_method": "author", "split_counts": {"train": 8, "test": 2},
        "category_counts": {"idioms": {"train": 5, "test": 1}}, "status_counts": {"accepted": 10},
        "excluded_counts": {"rejected": 1}, "collected_from": "2026-01-01", "collected_to": "2026-01-02",
        "models": (ModelUse("mini-v1", "abc", 10, "2026-01-01", "2026-01-02"),), "fooled_live": Rate(4, 10),
        "fooled_cv": None, "cv_description": "", "validation": Validation(0.9, 18, 20, 0.7, 0.97, 0.81, 3),
        "answer_only": None, "bias": None, "fields": ("fooled_live",), "pseudonymised": True, "authors": 3,
        "included": "questions with status accepted only"}
    base.update(changes)
    return CardInputs(**base)


def test_card_yaml_parses_with_huggingface_hub_and_body_reports_the_numbers():
    card = DatasetCard(render_card(_inputs()).text)
    assert card.data.license == "cc-by-4.0"
    assert card.data.task_categories == ["multiple-choice"]
    assert card.data.size_categories == ["n<1K"]
    assert card.data.configs[0]["data_files"] == [{"split": "train", "path": "data/train-*.parquet"},
                                                  {"split": "test", "path": "data/test-*.parquet"}]
    assert "4 of 10 (40.0%)" in card.text and "mini-v1" in card.text and "0.810" in card.text
    assert "chen-etal-2019-codah" in card.text and "serrano" in card.text.lower()


def test_size_categories_are_values_datasets_knows():
    import json

    known = set(json.loads(SIZES.read_text()))
    assert {size_category(n) for n in (0, 999, 1000, 10**4, 10**5, 10**6, 10**8, 10**10)} <= known


def test_a_folder_loads_with_datasets_and_keeps_class_labels(tmp_path):
    features = features_for("multiple_choice", categories=["idioms", "other"], fields=["weights", "fooled_live"])
    row = {"id": 1, "source": "r1", "author": "author-1", "prompt": "He", "choices": ["a", "b", "c", "d"],
           "answer": 2, "categories": [1], "status": "accepted", "created_at": "2026-01-01", "weights": None,
           "fooled_live": True}
    card = render_card(_inputs(split_counts={"train": 1, "test": 1}, fields=("weights", "fooled_live")))
    out = tmp_path / "release"
    write_release(out, rows_by_split={"train": [row], "test": [{**row, "id": 2, "weights": [1, 1, 1, 0.5]}]},
                  features=features, card_text=card.text)
    loaded = datasets.load_dataset(str(out), cache_dir=str(tmp_path / "cache"))
    assert loaded["train"].features["answer"].names == ["A", "B", "C", "D"]
    assert loaded["test"].features["categories"].feature.names == ["idioms", "other"]
    assert loaded["test"][0]["weights"] == [1.0, 1.0, 1.0, 0.5] and loaded["train"][0]["weights"] is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "release"]  # no temporary folder left


def test_a_failed_write_leaves_nothing_and_an_existing_folder_is_refused(tmp_path):
    features = features_for("span", categories=[], fields=[])
    with pytest.raises(ValueError, match="missing"):
        write_release(tmp_path / "out", rows_by_split={"train": [{"id": 1}]}, features=features, card_text="x")
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    with pytest.raises(ReleaseFolderError, match="already exists"):
        write_release(tmp_path / "full", rows_by_split={}, features=features, card_text="x")
    assert (tmp_path / "full" / "keep.txt").read_text() == "mine"
    with pytest.raises(ValueError, match="fooled_cv"):
        features_for("span", categories=[], fields=["fooled_cv"])


def test_span_card_reports_human_performance_in_words_and_squad_citations():
    inputs = _inputs(kind="span", validation=Validation(None, 0, 6, None, None, None, 0, "Human EM 80.0, F1 85.0."),
                     category_counts={"answerable": {"train": 8, "test": 2}})
    card = DatasetCard(render_card(inputs).text)
    assert card.data.task_ids == ["extractive-qa"]
    assert "- Human EM 80.0, F1 85.0." in card.text and "not measured" not in card.text
    assert "rajpurkar-etal-2018-know" in card.text and "darvishi" in card.text
