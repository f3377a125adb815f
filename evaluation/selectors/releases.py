"""What a dataset release holds, and the reads shared by round and project releases: model
versions in the loop, the latest evaluation report's bias headline and its reweighting weights,
and where imported questions come from (their source dataset and license, recorded at import).

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
from mlcore.data.release.licenses import DEFAULT_LICENSE, KNOWN_SOURCES


class ReleaseError(Exception):
    """A release cannot be made as asked; the message says what is missing or wrong.

    ``field`` is the option it is about (``status``, ``license``, ...; ``None``: the target itself),
    so that the page shows it beside that field. ``fix`` is the option and value that would make the
    release, e.g. ``("status", "all")``: each interface names it in its own words (the command's
    flag, the API's parameter, the page's choice), so the message itself names none of them."""

    def __init__(self, message: str, *, field: str | None = None, fix: tuple[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.field = field or (fix[0] if fix else None)
        self.fix = fix

    def worded(self, say_fix) -> str:
        """The message, then ``say_fix(option, value)`` (a sentence) when there is a fix."""
        return f"{self.message} {say_fix(*self.fix)}" if self.fix else self.message


@dataclass(frozen=True)
class ReleaseOptions:
    """``split_by=None``: by author for a round, by article for a project. ``license`` and
    ``source_dataset`` ``None``: those recorded when the questions were imported, and
    ``DEFAULT_LICENSE`` for questions written in Stumper (``release_source``)."""

    status: str = "accepted"
    split_by: str | None = None
    fields: tuple[str, ...] = ()
    pseudonymise: bool = True
    license: str | None = None
    seed: int = 0
    source_dataset: str | None = None


@dataclass(frozen=True)
class ReleaseContent:
    """Everything a release folder holds, built from the database before anything is written."""

    name: str  # folder / zip name, e.g. "stumper-r1"
    kind: str
    rows_by_split: dict[str, list[dict]]
    features: object  # datasets.Features
    card: object  # mlcore.data.release.card.DatasetCardText
    license: str = DEFAULT_LICENSE
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
                           "weights: compute a report on its evaluation page first, or leave the field out.", field="fields")
    return evaluation_run_weights(run_id=run.pk, round_=round_, project=project)


@dataclass(frozen=True)
class ReleaseProvenance:
    """The target's imported questions and the source recorded for them, for the release form."""

    imported: int
    source_dataset: str
    source_license: str

    @property
    def needs_source(self) -> bool:
        """Imported questions whose source or license the import did not record: the form asks."""
        return bool(self.imported) and not (self.source_dataset and self.source_license)

    @property
    def license(self) -> str:
        """The license a release takes unless told otherwise ("" when the form must ask)."""
        if not self.imported:
            return DEFAULT_LICENSE
        return self.source_license or KNOWN_SOURCES.get(self.source_dataset, "")


def release_provenance(*, round_=None, project=None) -> ReleaseProvenance:
    """How many of the target's questions were imported, and the source dataset and license recorded."""
    target = round_ if round_ is not None else project
    imported = target.questions.filter(source="imported").count()
    return ReleaseProvenance(imported, target.source_dataset, target.source_license)


@dataclass(frozen=True)
class ReleaseSource:
    """The license and ``source_datasets`` of one release, from the rows it holds."""

    license: str
    source_datasets: tuple[str, ...]
    imported_from: str  # "" when no released row is imported


def release_source(*, options: ReleaseOptions, written: int, imported: int, recorded: tuple[str, str],
                   what: str) -> ReleaseSource:
    """``source_datasets``: ``original`` for rows written in Stumper, the source's id for imported rows
    (``extended|<id>`` next to ``original`` when both are released). The license is the option's, else
    the one recorded at import (or known for the source), else ``DEFAULT_LICENSE`` when nothing is
    imported. Imported rows with no source or license recorded or given: a ReleaseError that asks."""
    if not imported:
        return ReleaseSource(options.license or DEFAULT_LICENSE, ("original",), "")
    dataset = options.source_dataset or recorded[0]
    if not dataset:
        raise ReleaseError(f"{what} holds {imported} imported question(s) whose source dataset was not recorded at "
                           "import: give it (the release form's “Source dataset”, source_dataset=, "
                           "--source-dataset), e.g. codah, squad_v2 or pquad, and its license.", field="source_dataset")
    license_id = options.license or (recorded[1] if dataset == recorded[0] else "") or KNOWN_SOURCES.get(dataset, "")
    if not license_id:
        raise ReleaseError(f"{what} holds {imported} question(s) imported from {dataset}, whose license was not "
                           "recorded at import: give that dataset's license (license=, --license), a Hub license id.",
                           field="license")
    return ReleaseSource(license_id, (dataset,) if not written else ("original", f"extended|{dataset}"), dataset)
