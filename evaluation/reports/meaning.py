"""The "what this means" line under each report section: the result in one plain sentence.

Pure functions of a stored section (``evaluation/reports/sections.py``); an unknown section gets none.
"""
from __future__ import annotations

import math
from collections.abc import Callable

from django.utils.translation import gettext as _

from evaluation.reports.format import format_cell, pvalue_text

ALPHA = 0.05
#: Below this power a test that finds nothing is said to say little (the usual 80% design target).
POWER_ENOUGH = 0.8


def _pct(value) -> str:
    return format_cell(value, "percent")


def _small(summary: dict, key: str, log10_key: str) -> bool | None:
    """Is the p-value below 5%? Read from its log10 twin when stored (p may have underflowed)."""
    log10 = summary.get(log10_key)
    if isinstance(log10, (int, float)) and math.isfinite(log10):
        return log10 < math.log10(ALPHA)
    value = summary.get(key)
    return value < ALPHA if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _overview(summary: dict) -> str:
    return ("Where the numbers below come from: the questions and model runs this report read. A new report "
            "reads the data again; this one stays as it was.")


def _codah(summary: dict) -> str:
    live = summary.get("live_model_accuracy")
    if live is None:
        return "No model answers yet, so nothing can be said about how hard the questions are."
    text = (f"The model in the loop picks the right completion for {_pct(live)} of the questions; guessing gives "
            "25.0%. The lower, the better the questions stump it.")
    small = _small(summary, "answer_only_pvalue", "answer_only_log10_pvalue")
    if small is not None:
        p = pvalue_text(summary.get("answer_only_pvalue"), summary.get("answer_only_log10_pvalue"))
        text += (f" Without the prompt a model still beats chance (p = {p}): the completions alone give answers away."
                 if small else f" Without the prompt a model does no better than chance (p = {p}): good.")
    return text


def _squad(summary: dict) -> str:
    f1 = summary.get("f1")
    if f1 is None and summary.get("with_model_answer") == 0:
        human = summary.get("human_f1")
        text = _("There is no model in the loop, so this report says nothing about a model's answers.")
        if human is not None:
            text += " " + _("People agree with each other's answers with F1 %(f1)s.") % {
                "f1": format_cell(human, "percent100")}
        return text
    if f1 is None:
        return "No model answers to score yet."
    text = f"The model's answers overlap the gold answers with F1 {format_cell(f1, 'percent100')}"
    human = summary.get("human_f1")
    if human is not None:
        text += f"; people reach {format_cell(human, 'percent100')}, so the gap shows how much the model misses"
    return text + "."


def _lexical(summary: dict) -> str:
    small = _small(summary, "pvalue", "log10_pvalue") if "pvalue" in summary else None
    if "log10_pvalue_stratified" in summary:
        log10 = summary["log10_pvalue_stratified"]
        small = isinstance(log10, (int, float)) and log10 < math.log10(ALPHA)
    if small is None:
        return ("These words go with one label far more often than chance (high z-score): a model can learn the "
                "shortcut. Reweighting makes them more balanced (points below the diagonal).")
    if small:
        return ("The model is right more often when a question's words usually go with its gold label: it likely "
                "uses these word shortcuts. Training with the weights below makes them less useful.")
    return ("No evidence that the model relies on these word shortcuts: it is about as accurate whether the words "
            "point to the gold label or not.")


def _selectional(summary: dict) -> str:
    small = _small(summary, "pvalue", "log10_pvalue")
    if small is None:
        return "Not enough answers to compare the genders."
    if small:
        return "The model finds the names of one gender more often than the other: a bias, not chance."
    power = summary.get("power_paper_gap")
    if isinstance(power, (int, float)) and power < POWER_ENOUGH:
        needed = summary.get("power_names_needed")
        return _("The test finds no difference between the genders, but that says little: with these gold names it "
                 "had only a %(power)s chance of seeing a gap as large as the one Mao et al. report (69.4%% against "
                 "64.3%% recall), and it would need about %(needed)s names of each gender for 80%%.") % {
            "power": _pct(power), "needed": needed if needed is not None else "—"}
    return "The model finds the names of both genders about equally often (no evidence of bias)."


def _retrieval(summary: dict) -> str:
    small = _small(summary, "pvalue", "log10_pvalue")
    if small is None:
        return "No gendered passages to compare."
    return ("The retriever returns passages about one gender more often than the passages' own balance would "
            "predict." if small else "The retriever's share of women matches the passages' own balance (no "
            "evidence of bias).")


MEANINGS: dict[str, Callable[[dict], str]] = {
    "overview": _overview, "codah": _codah, "squad": _squad, "lexical": _lexical,
    "ambiguity_selectional": _selectional, "ambiguity_retrieval": _retrieval,
}


def section_meaning(name: str, section: dict) -> str:
    """One sentence for people under the section ``name``; empty when there is nothing to say."""
    if not section.get("available", True):
        return ""
    meaning = MEANINGS.get(name)
    return meaning(section.get("summary") or {}) if meaning else ""
