"""What a dataset release holds, and the reads shared by round and project releases: model
versions in the loop, the latest evaluation report's bias headline and its reweighting weights.

The rows and card of each target are built by ``round_releases`` and ``project_releases``
(imported only when a release is made: they load the ``datasets`` library); the options are
checked and the files written by ``evaluation/services/releases.py``.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from evaluation.selectors import reports as report_selectors
from evaluation.selectors.exports import evaluation_run_weights, evaluation_runs_with_weights
from mlcore.data.release.card import Bias, ModelUse
from mlcore.data.release.licenses import DEFAULT_LICENSE


class ReleaseError(Exception):
    """A release cannot be made as asked; the message says what is missing or wrong."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class ReleaseOptions:
    """``split_by=None``: by author for a round, by article for a project."""

    status: str = "accepted"
    split_by: str | None = None
    fields: tuple[str, ...] = ()
    pseudonymise: bool = True
    license: str = DEFAULT_LICENSE
    seed: int = 0


@dataclass(frozen=True)
class ReleaseContent:
    """Everything a release folder holds, built from the database before anything is written."""

    name: str  # folder / zip name, e.g. "stumper-r1"
    kind: str
    rows_by_split: dict[str, list[dict]]
    features: object  # datasets.Features
    card: object  # mlcore.data.release.card.DatasetCardText
    warnings: tuple[str, ...] = ()

    def counts(self) -> dict[str, int]:
        return {split: len(rows) for split, rows in self.rows_by_split.items()}


BIAS_KEYS = ("instances", "permutation_test", "pvalue_stratified", "acc_usual", "acc_unusual", "pvalue_unstratified",
             "features_selected", "err_initial", "err_final", "ess", "bigram_lb_uniform", "bigram_lb_q")


def model_uses(predictions: Iterable[tuple[object, str, object]]) -> tuple[ModelUse, ...]:
    """``(model_version, revision, when)`` per answered question -> one ModelUse per version and revision."""
    seen: dict[tuple[str, str], list] = defaultdict(list)
    for version, revision, when in predictions:
        name = version.name if version is not None else "(deleted model version)"
        seen[(name, revision or (version.revision if version is not None else ""))].append(when)
    uses = []
    for (name, revision), times in seen.items():
        known = sorted(t for t in times if t is not None)
        uses.append(ModelUse(name, revision, len(times), known[0].strftime("%Y-%m-%d %H:%M") if known else None,
                             known[-1].strftime("%Y-%m-%d %H:%M") if known else None))
    return tuple(sorted(uses, key=lambda u: (u.first or "", u.name)))


def bias_of(*, round_=None, project=None) -> Bias | None:
    """The lexical section's headline of the target's latest finished evaluation report, if any."""
    run = report_selectors.latest_evaluation_run(round_=round_, project=project, finished=True)
    lexical = ((run.result or {}).get("lexical") or {}) if run else {}
    if not lexical:
        return None
    summary = lexical.get("summary") or {}
    covered = len((run.snapshot or {}).get("question_ids") or ())
    scope = (f"The report covers the {covered} questions {'the round' if round_ is not None else 'the project'} "
             "had when it started, released or not.")
    note = " ".join(part for part in (scope, lexical.get("note") or "") if part)
    return Bias(run.pk, run.finished_at.strftime("%Y-%m-%d %H:%M") if run.finished_at else "",
                {key: summary[key] for key in BIAS_KEYS if key in summary}, note)


def weights_of(*, round_=None, project=None) -> dict:
    """Weights n·q of the target's latest finished report that has them, or a ReleaseError."""
    run = evaluation_runs_with_weights(round_=round_, project=project).first()
    if run is None:
        what = f"round {round_.name}" if round_ is not None else f"project {project.name}"
        raise ReleaseError(f"The weights field needs a finished evaluation report of {what} with reweighting "
                           "weights: compute a report on its evaluation page first, or leave the field out.")
    return evaluation_run_weights(run_id=run.pk, round_=round_, project=project)
