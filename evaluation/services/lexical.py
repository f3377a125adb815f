"""Lexical-artifact analyses of labelled files: what ``manage.py lexical_bias`` and ``reweight`` do.

No database: read and validate the files (``mlcore.bias.lexical_io``), run the ``mlcore`` analysis,
return plain JSON. A bad file raises ``LabelledFileError`` naming each bad line, before any work.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from evaluation.reports.lexical import CHOICE_LABELS, choice_instances, choice_predictions
from mlcore.bias.lexical import check_label_set
from mlcore.bias.lexical_analysis import lexical_bias_analysis, reweight_analysis
from mlcore.bias.lexical_io import (
    LabelledFileError,
    check_labels_known,
    read_labelled_tsv,
    read_picks,
    read_predictions,
    read_text_file,
)
from mlcore.configs import NUM_CHOICES, MCExample
from mlcore.data.codah import parse_codah_tsv
from mlcore.stats.hypergeom import format_pvalue


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
    labels: str | None = None, stratify: str = "none",
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
        stratify=stratify,
    )
    out = analysis.to_dict()
    out["predictions_outside_label_set"] = sum(p not in set(label_set) for p in predicted)
    out["warnings"] = _warnings(out)
    return out


def read_codah_questions(path: str | Path) -> tuple[MCExample, ...]:
    """A CODAH TSV file (7 columns, no header); any bad line is a ``LabelledFileError`` naming it."""
    # The released CODAH data repeats a distractor in 3 questions (see mlcore/data/codah.py).
    parsed = parse_codah_tsv(read_text_file(path), allow_duplicate_choices=True)
    if parsed.errors:
        raise LabelledFileError(str(path), [(error.line, error.message) for error in parsed.errors])
    if not parsed.examples:
        raise LabelledFileError(str(path), [(0, "the file has no questions")])
    return parsed.examples


def lexical_bias_mc_files(
    *, train: str | Path, test: str | Path, picks: str | Path, k: int = 50, p0: str = "uniform",
    stratify: str = "gold",
) -> dict:
    """The permutation test of a forced-choice model's ``picks`` on CODAH ``test``, features from ``train``.

    Instances exactly as the round report builds them (:func:`choice_instances`): each completion
    labelled ``correct``/``incorrect``, features from its text.
    """
    train_questions, test_questions = read_codah_questions(train), read_codah_questions(test)
    picked = read_picks(picks, n_expected=len(test_questions), n_choices=NUM_CHOICES)
    train_data = _choice_data(train_questions)
    test_data = _choice_data(test_questions)
    predictions = choice_predictions(picked, [q.choices for q in test_questions])
    analysis = lexical_bias_analysis(train_data.texts, train_data.labels, test_data.texts, test_data.labels,
                                     predictions, label_set=CHOICE_LABELS, k=k, p0=p0, stratify=stratify)
    out = analysis.to_dict()
    out.update(n_train_questions=len(train_questions), n_test_questions=len(test_questions),
               accuracy=sum(pick == q.label for pick, q in zip(picked, test_questions)) / len(test_questions))
    out["warnings"] = _warnings(out)
    return out


def _choice_data(questions: tuple[MCExample, ...]):
    return choice_instances(range(len(questions)), [q.choices for q in questions], [q.label for q in questions])


def _warnings(result: dict) -> list[str]:
    """Why a number should not be trusted as printed (each also goes to stderr)."""
    gold = result["accuracy_by_gold"]
    if result["stratified"] or not gold["differs"]:
        return []
    per_label = ", ".join(f"{row['label']} {row['accuracy']:.3f}" for row in gold["per_label"])
    return [f"Accuracy differs between gold labels ({per_label}; chi-squared p = "
            f"{format_pvalue(gold['log10_pvalue'])}): the unstratified test (SPEC §2.3) then assumes an equal "
            "chance per slot that does not hold, and flags even a model that ignores the words. "
            "Use --stratify gold for the test stratified by gold label (SPEC §2.5)."]


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
