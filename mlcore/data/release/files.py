"""The release folder: typed features, one Parquet file per split, README.md, written atomically.

``load_dataset(folder)`` reads the splits from the card's ``configs`` and the features (with
their ``ClassLabel`` names) from the schema metadata ``datasets`` stores in each Parquet file.
"""
from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import datasets

from mlcore.data.release.card import FIELDS, MULTIPLE_CHOICE, SPAN_FIELDS

ANSWER_NAMES = ("A", "B", "C", "D")


class ReleaseFolderError(Exception):
    """The output folder cannot be written; nothing was left behind."""


def mc_features(categories: Sequence[str], fields: Sequence[str]) -> datasets.Features:
    """CODAH-style rows: the answer and the categories are ``ClassLabel``s."""
    spec = {
        "id": datasets.Value("int64"), "source": datasets.Value("string"), "author": datasets.Value("string"),
        "prompt": datasets.Value("string"), "choices": datasets.List(datasets.Value("string"), length=4),
        "answer": datasets.ClassLabel(names=list(ANSWER_NAMES)),
        "categories": datasets.List(datasets.ClassLabel(names=list(categories))),
        "status": datasets.Value("string"), "created_at": datasets.Value("string"),
    }
    optional = {
        "predictions": {"live_prediction": datasets.Value("int8"), "live_model": datasets.Value("string"),
                        "live_model_revision": datasets.Value("string"),
                        "live_probs": datasets.List(datasets.Value("float32"))},
        "fooled_live": {"fooled_live": datasets.Value("bool")},
        "fooled_cv": {"fooled_cv": datasets.Value("float32")},
        "agreement": {"validations": datasets.Value("int32"), "validators_agreeing": datasets.Value("int32"),
                      "agreement": datasets.Value("float32")},
        "weights": {"weights": datasets.List(datasets.Value("float32"), length=4)},
        "item_quality": {"quality": datasets.Value("float32"), "difficulty": datasets.Value("float32"),
                         "discrimination": datasets.Value("float32")},
    }
    for name in fields:
        spec.update(optional[name])
    return datasets.Features(spec)


def span_features(fields: Sequence[str]) -> datasets.Features:
    """The ``squad_v2`` schema (id, title, context, question, answers{text, answer_start}) plus extras."""
    spec = {
        "id": datasets.Value("string"), "title": datasets.Value("string"), "context": datasets.Value("string"),
        "question": datasets.Value("string"),
        "answers": {"text": datasets.List(datasets.Value("string")),
                    "answer_start": datasets.List(datasets.Value("int32"))},
        "author": datasets.Value("string"), "created_at": datasets.Value("string"),
    }
    optional = {
        "predictions": {"model_prediction": datasets.Value("string"), "model": datasets.Value("string"),
                        "model_revision": datasets.Value("string"), "model_f1": datasets.Value("float32")},
        "fooled_live": {"fooled_live": datasets.Value("bool")},
        "agreement": {"second_pass_answers": datasets.Value("int32"), "second_pass_agreeing": datasets.Value("int32"),
                      "agreement": datasets.Value("float32")},
        "weights": {"weight": datasets.Value("float32")},
    }
    for name in fields:
        spec.update(optional[name])
    return datasets.Features(spec)


def features_for(kind: str, *, categories: Sequence[str], fields: Sequence[str]) -> datasets.Features:
    allowed = FIELDS if kind == MULTIPLE_CHOICE else SPAN_FIELDS
    unknown = [f for f in fields if f not in allowed]
    if unknown:
        raise ValueError(f"unknown field(s) for a {kind} release: {', '.join(unknown)} (choose from {', '.join(allowed)})")
    return mc_features(categories, fields) if kind == MULTIPLE_CHOICE else span_features(fields)


@dataclass(frozen=True)
class WrittenRelease:
    folder: Path
    files: tuple[str, ...]  # relative to the folder
    rows: Mapping[str, int]  # split -> rows


def write_release(out_dir: Path, *, rows_by_split: Mapping[str, Sequence[dict[str, Any]]], features: datasets.Features,
                  card_text: str, overwrite: bool = False) -> WrittenRelease:
    """Write the folder under a temporary name next to ``out_dir`` and rename it at the end.

    ``out_dir`` must not exist or be empty (or ``overwrite``). On any failure the temporary
    folder is removed and ``out_dir`` is untouched.
    """
    out_dir = Path(out_dir)
    if out_dir.exists() and (not out_dir.is_dir() or (any(out_dir.iterdir()) and not overwrite)):
        raise ReleaseFolderError(f"{out_dir} already exists and is not an empty folder; choose a new folder "
                                 "(or pass --overwrite to replace it).")
    parent = out_dir.parent
    if not parent.is_dir():
        raise ReleaseFolderError(f"Cannot write {out_dir}: the folder {parent} does not exist.")
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.tmp-", dir=parent))
    except OSError as error:
        raise ReleaseFolderError(f"Cannot write in {parent}: {error.strerror or error}.") from None
    try:
        files = _write_files(tmp, rows_by_split, features, card_text)
        _replace(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return WrittenRelease(out_dir, files, {split: len(rows) for split, rows in rows_by_split.items()})


def _write_files(folder: Path, rows_by_split: Mapping[str, Sequence[dict[str, Any]]], features: datasets.Features,
                 card_text: str) -> tuple[str, ...]:
    expected = set(features)
    for split, rows in rows_by_split.items():
        for row in rows:
            if set(row) != expected:
                raise ValueError(f"a {split} row does not match the features: missing {sorted(expected - set(row))}, "
                                 f"unexpected {sorted(set(row) - expected)}")
    (folder / "data").mkdir()
    files = []
    for split, rows in rows_by_split.items():
        name = f"data/{split}-00000-of-00001.parquet"
        datasets.Dataset.from_list(list(rows), features=features, split=split).to_parquet(str(folder / name))
        files.append(name)
    (folder / "README.md").write_text(card_text, encoding="utf-8")
    return (*files, "README.md")


def _replace(tmp: Path, out_dir: Path) -> None:
    if not out_dir.exists():
        tmp.rename(out_dir)
        return
    # An existing (empty, or overwritten) folder is moved aside first, so a failed rename keeps it.
    aside = out_dir.with_name(f".{out_dir.name}.old-{tmp.name.rsplit('-', 1)[-1]}")
    out_dir.rename(aside)
    try:
        tmp.rename(out_dir)
    except BaseException:
        aside.rename(out_dir)
        raise
    shutil.rmtree(aside, ignore_errors=True)
