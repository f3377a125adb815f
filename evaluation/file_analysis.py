"""Lexical-artifact analyses of labelled files: what ``manage.py lexical_bias`` and ``reweight`` do.

No database: read and validate the files (``mlcore.lexical_io``), run the ``mlcore`` analysis,
return plain JSON. A bad file raises ``LabelledFileError`` naming each bad line, before any work.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from mlcore.lexical import check_label_set
from mlcore.lexical_analysis import lexical_bias_analysis, reweight_analysis
from mlcore.lexical_io import LabelledFileError, check_labels_known, read_labelled_tsv, read_predictions


def _label_set(declared: str | None, observed: tuple[str, ...], source: str) -> tuple[str, ...]:
    if not declared:
        labels = observed
    else:
        labels = tuple(label.strip() for label in declared.split(",") if label.strip())
        extra = sorted(set(observed) - set(labels))
        if extra:
            raise LabelledFileError(source, [(0, f"labels {', '.join(extra)} are not in --labels {declared}")])
    try:
        return check_label_set(labels)
    except ValueError as error:
        raise LabelledFileError(source, [(0, str(error))]) from None


def lexical_bias_files(
    *, train: str | Path, test: str | Path, predictions: str | Path, k: int = 50, p0: str = "uniform",
    labels: str | None = None,
) -> dict:
    """Top-k features of ``train`` and the permutation test of ``predictions`` on ``test`` (SPEC §1-2)."""
    train_data = read_labelled_tsv(train)
    test_data = read_labelled_tsv(test)
    label_set = _label_set(labels, train_data.label_set(), str(train))
    check_labels_known(test_data.labels, label_set, source=str(test))
    predicted = read_predictions(predictions, n_expected=len(test_data))
    analysis = lexical_bias_analysis(
        train_data.text_a, train_data.labels, test_data.text_a, test_data.labels, predicted,
        label_set=label_set, train_second=train_data.text_b, test_second=test_data.text_b, k=k, p0=p0,
    )
    out = analysis.to_dict()
    out["predictions_outside_label_set"] = sum(p not in set(label_set) for p in predicted)
    return out


def reweight_files(
    *, train: str | Path, min_count: int = 100, max_steps: int = 3000, seed: int = 0, labels: str | None = None,
    weights_out: str | Path | None = None, progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Reweight ``train`` (SPEC §3); optionally write one weight ``n·q_i`` per line, in file order."""
    data = read_labelled_tsv(train)
    label_set = _label_set(labels, data.label_set(), str(train))
    analysis = reweight_analysis(data.text_a, data.labels, label_set=label_set, second=data.text_b,
                                 min_count=min_count, max_steps=max_steps, seed=seed, progress=progress)
    out = {"label_set": list(label_set), "n_train": len(data), **analysis.to_dict()}
    if weights_out is not None:
        _write_atomically(Path(weights_out), "".join(f"{w:.9g}\n" for w in analysis.result.weights))
        out["weights_out"] = str(weights_out)
    return out


def _write_atomically(path: Path, text: str) -> None:
    # A crash or a full disk leaves the old file (or none), never half the weights.
    handle, temporary = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
