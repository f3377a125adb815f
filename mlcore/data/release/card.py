"""The dataset card (README.md) of a release: YAML metadata the Hub parses, and a body written
from the data. Pure: ``evaluation/release_inputs.py`` gathers :class:`CardInputs` from the database.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from mlcore.data.release.citations import citations_for

MULTIPLE_CHOICE, SPAN = "multiple_choice", "span"
# Optional per-item fields (``--fields``); a span project has no cross-validation folds.
FIELDS = ("predictions", "fooled_live", "fooled_cv", "agreement", "weights", "item_quality")
SPAN_FIELDS = ("predictions", "fooled_live", "agreement", "weights")
TASKS = {MULTIPLE_CHOICE: ("multiple-choice", "multiple-choice-qa"), SPAN: ("question-answering", "extractive-qa")}
# datasets/utils/resources/size_categories.json, the values the Hub filters on.
SIZE_BOUNDS = ((10**3, "n<1K"), (10**4, "1K<n<10K"), (10**5, "10K<n<100K"), (10**6, "100K<n<1M"),
               (10**7, "1M<n<10M"), (10**8, "10M<n<100M"), (10**9, "100M<n<1B"))


@dataclass(frozen=True)
class Rate:
    """``k`` of ``n`` items (e.g. fooled the model); ``k`` is a sum of shares for CODAH's ``fooled_cv``."""

    k: float
    n: int

    @property
    def value(self) -> float | None:
        return self.k / self.n if self.n else None

    def text(self) -> str:
        return f"{self.k:.4g} of {self.n} ({100 * self.k / self.n:.1f}%)" if self.n else "no items"


@dataclass(frozen=True)
class ModelUse:
    """A model version that answered authors while they wrote: how often and when."""

    name: str
    revision: str
    items: int
    first: str | None
    last: str | None


@dataclass(frozen=True)
class Validation:
    """Blind validation: human accuracy with its 95% interval and the mean pairwise Cohen's kappa."""

    accuracy: float | None
    correct: int
    answers: int
    ci_low: float | None
    ci_high: float | None
    kappa: float | None
    kappa_pairs: int
    description: str = ""  # e.g. "second-pass answers against the original answer: EM 80.0, F1 85.1"


@dataclass(frozen=True)
class AnswerOnly:
    run_id: int
    accuracy: float
    correct: int
    n: int
    pvalue: float
    chance: float


@dataclass(frozen=True)
class Bias:
    """The headline of an evaluation report's lexical section (Serrano et al.'s tests and reweighting)."""

    report_id: int
    finished_at: str
    summary: Mapping[str, object]
    note: str = ""


@dataclass(frozen=True)
class CardInputs:
    pretty_name: str
    kind: str  # MULTIPLE_CHOICE or SPAN
    source: str  # "round r1 of course Intro NLP"
    license: str
    language: str
    status: str  # "accepted" or "all"
    split_method: str
    split_counts: Mapping[str, int]
    category_counts: Mapping[str, Mapping[str, int]]  # category -> split -> items
    status_counts: Mapping[str, int]  # included items per question status
    excluded_counts: Mapping[str, int]  # items left out, per status
    collected_from: str | None
    collected_to: str | None
    models: tuple[ModelUse, ...]
    fooled_live: Rate | None
    fooled_cv: Rate | None
    cv_description: str
    validation: Validation | None
    answer_only: AnswerOnly | None
    bias: Bias | None
    fields: tuple[str, ...]
    pseudonymised: bool
    authors: int  # distinct recorded authors of the released items
    included: str  # which items the release's filter took, in words ("questions with status accepted only")
    unattributed: int = 0  # released items with no recorded author (imported ones among them)
    imported: int = 0  # released items imported from ``imported_from`` rather than written in Stumper
    imported_from: str = ""  # the source dataset's Hub id
    source_datasets: tuple[str, ...] = ("original",)
    limitations: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class DatasetCardText:
    metadata: Mapping[str, object]
    body: str

    @property
    def text(self) -> str:
        header = yaml.safe_dump(dict(self.metadata), sort_keys=False, allow_unicode=True)
        return f"---\n{header}---\n\n{self.body}"


def size_category(n: int) -> str:
    """The Hub's size bucket of ``n`` items.

    Examples
    --------
    >>> size_category(999), size_category(1000), size_category(2_000_000)
    ('n<1K', '1K<n<10K', '1M<n<10M')
    """
    for bound, name in SIZE_BOUNDS:
        if n < bound:
            return name
    return "1B<n<10B"


def card_metadata(inputs: CardInputs) -> dict[str, Any]:
    task, task_id = TASKS[inputs.kind]
    n = sum(inputs.split_counts.values())
    return {
        "pretty_name": inputs.pretty_name,
        "license": inputs.license,
        "language": [inputs.language],
        "task_categories": [task],
        "task_ids": [task_id],
        "size_categories": [size_category(n)],
        "annotations_creators": ["crowdsourced"],
        "language_creators": ["crowdsourced"],
        "multilinguality": ["monolingual"],
        "source_datasets": list(inputs.source_datasets),
        "tags": ["adversarial", "model-in-the-loop", "stumper"],
        "configs": [{
            "config_name": "default",
            "data_files": [{"split": name, "path": f"data/{name}-*.parquet"} for name in inputs.split_counts],
        }],
    }


def render_card(inputs: CardInputs) -> DatasetCardText:
    """The card of a release: metadata and a Markdown body, every number taken from ``inputs``."""
    if inputs.kind not in TASKS:
        raise ValueError(f"kind must be one of {sorted(TASKS)}, got {inputs.kind!r}")
    parts = [f"# {inputs.pretty_name}\n", _summary(inputs), _collection(inputs), _structure(inputs),
             _counts(inputs), _model_results(inputs), _validation(inputs), _bias(inputs), _limitations(inputs),
             "## Citation\n\nIf you use this dataset, please cite the methods it was collected and analysed with:\n\n"
             + "```bibtex\n" + "\n\n".join(citations_for(inputs.kind)) + "\n```\n"]
    return DatasetCardText(card_metadata(inputs), "\n".join(parts))


def _pct(value: float | None) -> str:
    return "not measured" if value is None else f"{100 * value:.1f}%"


def _summary(i: CardInputs) -> str:
    n = sum(i.split_counts.values())
    what = ("four-choice sentence-completion questions (CODAH format)" if i.kind == MULTIPLE_CHOICE
            else "reading-comprehension questions with answer spans (SQuAD 2.0 format)")
    written = n - i.imported
    origin = ([f"{written} written with Stumper"] if written else []) + (
        [f"{i.imported} imported from `{i.imported_from}`"] if i.imported else [])
    if not i.authors:
        authors = "not recorded"
    else:
        authors = f"{i.authors} ({'pseudonymised' if i.pseudonymised else 'user names'})"
        if i.unattributed:
            authors += f"; not recorded for {i.unattributed} questions"
    sources = ", ".join(f"`{s}`" for s in i.source_datasets)
    return (f"{n} {what} in {i.source}: {', '.join(origin)}.\n\n"
            f"- Authors: {authors}.\n- Included: {i.included}.\n"
            f"- License: `{i.license}`. Source datasets: {sources}.\n")


def _collection(i: CardInputs) -> str:
    written = sum(i.split_counts.values()) - i.imported
    lines = ["## Collection method", ""]
    if written:
        lines.append("Model in the loop (Dynabench-style adversarial authoring): while writing, each author saw the "
                     "answer of the model below and was rewarded for questions it got wrong.")
    if i.imported:
        lines.append(f"{i.imported} questions were imported from `{i.imported_from}`: written outside Stumper, with "
                     "no model in the loop here, and their authors are not recorded.")
    if i.collected_from:
        verb = "written" if not i.imported else "imported" if not written else "written or imported"
        lines.append(f"Questions were {verb} between {i.collected_from} and {i.collected_to} (UTC).")
    lines.append("")
    if i.models:
        lines += ["| model version | revision | questions answered | first | last |", "|---|---|---|---|---|"]
        lines += [f"| {m.name} | {m.revision or '-'} | {m.items} | {m.first or '-'} | {m.last or '-'} |"
                  for m in i.models]
    else:
        lines.append("No model answered these questions at submission (no model in the loop).")
    return "\n".join(lines) + "\n"


def _structure(i: CardInputs) -> str:
    splitting = {
        "author": "by author: all questions of an author are in the same split, so no author is in two splits",
        "folds": "by the folds of the cross-validation scoring run (one split per fold)",
        "article": "by article, as stored with the project (no article's paragraphs are in two splits)",
    }[i.split_method]
    authors = ("pseudonymised (`author-N`, numbered in a keyed-hash order)" if i.pseudonymised
               else "the authors' user names (pseudonymisation turned off by the owner)")
    if i.unattributed:
        authors += "; empty where no author is recorded (imported questions), each such question placed on its own"
    extra = ", ".join(f"`{f}`" for f in i.fields) or "none"
    return ("## Dataset structure\n\n"
            f"Splits are made {splitting}. Authors: {authors}. Optional per-item fields included: {extra}.\n")


def _counts(i: CardInputs) -> str:
    names = list(i.split_counts)
    lines = ["## Counts", "", "| | " + " | ".join(names) + " | total |", "|---" * (len(names) + 2) + "|",
             "| questions | " + " | ".join(str(i.split_counts[s]) for s in names)
             + f" | {sum(i.split_counts.values())} |"]
    for category, per_split in i.category_counts.items():
        lines.append(f"| {category} | " + " | ".join(str(per_split.get(s, 0)) for s in names)
                     + f" | {sum(per_split.values())} |")
    statuses = ", ".join(f"{k}: {v}" for k, v in i.status_counts.items() if v)
    excluded = ", ".join(f"{k}: {v}" for k, v in i.excluded_counts.items() if v) or "none"
    lines += ["", f"Question status of the released items: {statuses}. Left out: {excluded}."]
    return "\n".join(lines) + "\n"


def _model_results(i: CardInputs) -> str:
    live = i.fooled_live.text() if i.fooled_live else "not available (no live predictions)"
    cv = i.fooled_cv.text() if i.fooled_cv else "not available (no finished cross-validation scoring run)"
    lines = ["## Fooling rates and baselines", "",
             f"- Fooled the live model at submission: {live}.",
             f"- Fooled the model in cross-validation (mean share of trials wrong, CODAH §3): {cv}"
             + (f" — {i.cv_description}" if i.fooled_cv and i.cv_description else "") + "."]
    a = i.answer_only
    if a is not None:
        lines.append(f"- Answer-only baseline (prompts blanked, scoring run {a.run_id}): {_pct(a.accuracy)} "
                     f"({a.correct} of {a.n}; chance {_pct(a.chance)}; one-sided binomial p = {a.pvalue:.3g}). "
                     "Above chance means the completions alone give the answer away for some questions.")
    elif i.kind == MULTIPLE_CHOICE:
        lines.append("- Answer-only baseline: not computed (no finished answer-only scoring run).")
    return "\n".join(lines) + "\n"


def _validation(i: CardInputs) -> str:
    v = i.validation
    if v is None:
        return "## Validation\n\nNot measured: no blind validation of these questions yet.\n"
    if v.accuracy is None and v.description:  # span projects: human EM/F1 from the second pass
        return f"## Validation\n\n- {v.description}\n"
    interval = "" if v.ci_low is None else f", 95% CI {_pct(v.ci_low)}–{_pct(v.ci_high)}"
    kappa = ("not computed (too few shared items per validator pair)" if v.kappa is None
             else f"{v.kappa:.3f} (mean over {v.kappa_pairs} validator pairs)")
    lines = ["## Validation", "",
             f"- Human accuracy (validators answering blind): {_pct(v.accuracy)} ({v.correct} of {v.answers} "
             f"answers{interval}).",
             f"- Agreement on the answer, Cohen's kappa: {kappa}."]
    if v.description:
        lines.append(f"- {v.description}")
    return "\n".join(lines) + "\n"


BIAS_LABELS = {
    "instances": "instances analysed", "pvalue_stratified": "stratified permutation test p-value",
    "acc_usual": "model accuracy where features point to the gold label",
    "acc_unusual": "model accuracy where they do not", "pvalue_unstratified": "unstratified p-value",
    "features_selected": "features selected", "err_initial": "feature-label imbalance before reweighting",
    "err_final": "after reweighting", "ess": "effective sample size after reweighting",
    "bigram_lb_uniform": "bigram imbalance bound, uniform weights", "bigram_lb_q": "bigram bound, reweighted",
}


def _bias(i: CardInputs) -> str:
    b = i.bias
    if b is None:
        return ("## Bias report\n\nNo finished evaluation report: compute one on the round or project's report "
                "page to add the lexical-bias tests and reweighting (Serrano et al., 2023) here.\n")
    lines = ["## Bias report", "", f"From evaluation report {b.report_id} (finished {b.finished_at}), "
             "lexical features in the sense of Serrano et al. (2023):", ""]
    for key, label in BIAS_LABELS.items():
        if b.summary.get(key) is not None:
            value = b.summary[key]
            shown = f"{value:.4g}" if isinstance(value, float) else str(value)
            lines.append(f"- {label}: {shown}")
    if b.note:
        lines += ["", b.note]
    return "\n".join(lines) + "\n"


def _limitations(i: CardInputs) -> str:
    lines = ["## Known limitations", ""]
    if sum(i.split_counts.values()) > i.imported:
        lines.append("- Written by the participants of one course or crowd project: a small, non-representative "
                     "group of authors, whose style a model can learn (hence the author split).")
    if i.models:
        lines.append("- Adversarial against specific model versions (listed above): questions that fooled them need "
                     "not fool other models, and the set is biased toward what those models got wrong.")
    if i.imported:
        lines.append(f"- {i.imported} questions are imported from `{i.imported_from}` as published: see that "
                     "dataset's own card and paper for how they were collected and validated.")
    lines.append("- Lexical artifacts remain possible even after reweighting (Serrano et al., 2023); check the "
                 "answer-only baseline and the bias report before training on this data.")
    if i.status != "accepted":
        lines.append("- Includes questions not (yet) accepted by validation: some answer keys may be wrong."
                     if i.kind == MULTIPLE_CHOICE else "- Includes questions with an open flag: some may be wrong.")
    if i.validation is None:
        lines.append("- No human validation: human accuracy and agreement are unknown.")
    lines += [f"- {text}" for text in i.limitations]
    return "\n".join(lines) + "\n"
