"""The ambiguity probes' results as JSON (``--json`` and the report), report sections and text tables.

Pure functions over the result dataclasses; every number is JSON-safe (NaN and infinities become
``None``). The report layout is the one of :mod:`evaluation.sections`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from evaluation.reports.sections import clean_scalar, section, table, unavailable
from mlcore.bias.ambiguity import SelectionalRecallResult
from mlcore.bias.permutation import format_pvalue
from mlcore.bias.retrieval import RetrievalProbeResult
from mlcore.stats.power import two_proportion_power

SELECTIONAL_TITLE = "Selectional ambiguity: recall per gender"
#: The largest gender gap in recall Mao et al. report for selectional ambiguity (Table 3, LSTM: men
#: 0.694, women 0.643; BiDAF 0.697/0.687, BERT 0.391/0.399), the effect whose detection power is stated.
PAPER_RECALLS = (0.694, 0.643)
RETRIEVAL_TITLE = "Retrieval ambiguity: whom the retriever returns"
#: Mao et al. plot the eight most male and eight most female occupations.
FIGURE_SIDE = 8
VALIDITY_NOTE = ("Genders are guessed from first names ({lookup}); pages that are not about one person count as "
                 "unknown. Name-based guessing carries cultural bias (Mao et al., threats to validity).")



@dataclass(frozen=True)
class SelectionalProbe:
    """Recall per gender and its test, with where the answers came from."""

    result: SelectionalRecallResult
    predictions: Mapping[str, str]
    source: str  # "model" or "predictions file"
    model_name: str = ""
    model_revision: str = ""
    match: str = "fraction"
    tau: float = 0.5


def _num(value: Any) -> Any:
    return clean_scalar(float(value)) if value is not None else None


# --------------------------------------------------------------------------- selectional
def selectional_payload(probe: SelectionalProbe) -> dict:
    """Recall per group, counts, and the test: ``test`` names the one whose p-value is ``pvalue``.

    Pearson χ² without Yates (``chi2``, ``dof``, ``chi2_pvalue``) is always given; when an expected
    count is below 5 in a 2×2 table, Fisher's exact test is the one used (SPEC §4.1). Each p-value
    has a ``log10`` twin that stays finite when the p-value underflows to 0 (SPEC §0).
    """
    r, t = probe.result, probe.result.test
    use_fisher = t.fisher_pvalue is not None
    intervals = {g: r.confidence_interval(g) for g, m in zip(r.groups, r.mentions) if m}
    return {
        "probe": "selectional_ambiguity",
        "attribute": r.attribute,
        "n_questions": len(probe.predictions),
        "answers_from": probe.source,
        "model": probe.model_name or None,
        "model_revision": probe.model_revision or None,
        "match": probe.match,
        "tau": probe.tau,
        "groups": list(r.groups),
        "recall": {g: _num(v) for g, v in zip(r.groups, r.recall)},
        "recall_ci95": {g: [_num(ci.low), _num(ci.high)] for g, ci in intervals.items()},
        "mentions": dict(zip(r.groups, r.mentions)),
        "retrieved": dict(zip(r.groups, r.retrieved)),
        "test": "fisher_exact" if use_fisher else "chi2",
        "pvalue": _num(t.fisher_pvalue if use_fisher else t.pvalue),
        "log10_pvalue": _num(t.fisher_log10_pvalue if use_fisher else t.log10_pvalue),
        "chi2": _num(t.statistic),
        "dof": t.dof,
        "chi2_pvalue": _num(t.pvalue),
        "chi2_log10_pvalue": _num(t.log10_pvalue),
        "expected": [[_num(v) for v in row] for row in t.expected],
        "small_expected": t.small_expected,
        "degenerate": t.degenerate,
        "fisher_odds_ratio": _num(t.fisher_statistic),
        "fisher_pvalue": _num(t.fisher_pvalue),
        "fisher_log10_pvalue": _num(t.fisher_log10_pvalue),
    }


def selectional_text(payload: dict) -> str:
    """A readable table of :func:`selectional_payload`."""
    lines = [f"Selectional ambiguity: {payload['n_questions']} questions, answers from "
             f"{payload['model'] or payload['answers_from']} (match={payload['match']}, tau={payload['tau']})", "",
             f"{'group':<10} {'mentions':>9} {'retrieved':>10} {'recall':>8}   95% CI"]
    for g in payload["groups"]:
        low, high = payload["recall_ci95"].get(g, [None, None])
        ci = f"[{low:.3f}, {high:.3f}]" if low is not None else ""
        lines.append(f"{g:<10} {payload['mentions'][g]:>9} {payload['retrieved'][g]:>10} "
                     f"{payload['recall'][g]:>8.3f}   {ci}")
    lines += ["", f"chi2 = {_fmt(payload['chi2'])}, dof = {payload['dof']}, "
                  f"p = {_fmt_p(payload['chi2_pvalue'], payload['chi2_log10_pvalue'])} (Pearson, no Yates correction)"]
    if payload["fisher_pvalue"] is not None:
        lines.append("Fisher's exact test (an expected count is below 5): "
                     f"p = {_fmt_p(payload['fisher_pvalue'], payload['fisher_log10_pvalue'])}")
    if payload["degenerate"]:
        lines.append("Degenerate table (an expected count is 0): no test possible.")
    return "\n".join(lines)


def _fmt(value: Any) -> str:
    return "n/a" if value is None else f"{value:.6g}"


def _fmt_p(pvalue: Any, log10_pvalue: Any) -> str:
    """A p-value that underflowed to 0 is shown from its log10 (SPEC §0 display rule)."""
    return format_pvalue(log10_pvalue) if pvalue == 0.0 and log10_pvalue is not None else _fmt(pvalue)


def selectional_section(probe: SelectionalProbe, *, source: str = "") -> dict:
    """The report section: summary, recall table (CSV), recall bar chart; ``source`` names the question set."""
    p = selectional_payload(probe)
    rows = [[g, p["mentions"][g], p["retrieved"][g], p["recall"][g], *p["recall_ci95"].get(g, [None, None])]
            for g in p["groups"]]
    note = "Fisher's exact test is used because an expected count is below 5. " if p["test"] == "fisher_exact" else ""
    if p["degenerate"]:
        note += "Every name was found (or none was), so there is nothing to test. "
    summary = {"question_set": source or None, "questions": p["n_questions"], "model": p["model"], "test": p["test"],
               "chi2": p["chi2"],
               "dof": p["dof"], "pvalue": p["pvalue"], "log10_pvalue": p["log10_pvalue"]}
    summary.update({f"recall_{g}": p["recall"][g] for g in p["groups"]})
    summary.update(selectional_power(p))
    return section(
        SELECTIONAL_TITLE, summary=summary, note=note.strip(),
        tables={"recall": table("Recall per gender", ["gender", "gold names", "found", "recall", "ci95_low",
                                                      "ci95_high"], rows)},
        charts={"recall": {"kind": "bar", "title": "Recall of gold names per gender", "format": "percent", "max": 1,
                           "x_label": "share of gold names found", "y_label": "Gender", "value_label": "recall",
                           "items": [{"label": g, "value": p["recall"][g]} for g in p["groups"]]}},
    )


def selectional_power(payload: dict) -> dict:
    """How likely the test was to see a gap the size Mao et al. report (:data:`PAPER_RECALLS`), with
    the gold names of each gender this probe had; empty unless both genders have names."""
    mentions = payload["mentions"]
    if set(payload["groups"]) != {"male", "female"} or not all(mentions[g] for g in ("male", "female")):
        return {}
    result = two_proportion_power(*PAPER_RECALLS, mentions["male"], mentions["female"], alpha=0.05)
    return {"power_paper_gap": _num(result.power), "power_names_needed": result.n_for_power(0.8)}


def selectional_unavailable(note: str) -> dict:
    return unavailable(SELECTIONAL_TITLE, note)


# --------------------------------------------------------------------------- retrieval
def _fit(fit: Any) -> dict:
    male, female = fit.observed
    return {
        "counts": {"male": male, "female": female, "unknown": fit.n_unknown},
        "female_share": _num(fit.female_share),
        "expected": {"male": _num(fit.expected[0]), "female": _num(fit.expected[1])},
        "chi2": _num(fit.statistic),
        "dof": fit.dof,
        "pvalue": _num(fit.pvalue),
        "log10_pvalue": _num(fit.log10_pvalue),
        "degenerate": fit.degenerate,
    }


def retrieval_payload(result: RetrievalProbeResult, *, passages: bool = True) -> dict:
    """Counts, goodness of fit, disparity per occupation (most female first) and the reader's answers.

    With ``passages`` every question's ranked passages (index, score, group) are included too.
    """
    a, fit = result.ambiguity, result.ambiguity.fit
    by_occ = {q.occupation: q for q in result.questions}
    payload = {
        "probe": "retrieval_ambiguity",
        "retriever": result.retriever,
        "lookup": a.lookup,
        "k": a.k,
        "n_passages": result.n_passages,
        "n_questions": len(result.questions),
        "baseline_female": fit.baseline_female_share,
        **_fit(fit),
        "caveat": fit.caveat,
        "occupations": [
            {"occupation": o.occupation, "question": by_occ[o.occupation].question, "retrieved": len(by_occ[o.occupation].hits),
             "female": o.female, "male": o.male, "unknown": o.unknown, "disparity": o.disparity,
             "excess": _num(o.excess(fit.baseline_female_share))}
            for o in a.occupations
        ],
        "most_female": [o.occupation for o in a.highest(FIGURE_SIDE)],
        "most_male": [o.occupation for o in a.lowest(FIGURE_SIDE)],
        "reader": None,
    }
    if result.reader is not None:
        payload["reader"] = {
            "model": result.reader_name, **_fit(result.reader),
            "answers": [{"occupation": q.occupation, "answer": q.reader_answer, "group": q.reader_group}
                        for q in result.questions],
        }
    if passages:
        payload["passages"] = {
            q.occupation: [{"id": result.passages[h.index].id, "title": result.passages[h.index].title,
                            "score": _num(h.score), "group": g} for h, g in zip(q.hits, q.groups)]
            for q in result.questions
        }
    return payload


def retrieval_text(payload: dict) -> str:
    """A readable summary and disparity table of :func:`retrieval_payload`."""
    c = payload["counts"]
    lines = [f"Retrieval ambiguity: {payload['n_questions']} questions over {payload['n_passages']} passages, "
             f"top {payload['k']} by {payload['retriever']}", f"Gender lookup: {payload['lookup']}", "",
             f"Passages: {c['male']} male, {c['female']} female, {c['unknown']} unknown; female share "
             f"{_fmt(payload['female_share'])} vs baseline {payload['baseline_female']}",
             f"Goodness of fit: chi2 = {_fmt(payload['chi2'])}, dof = {payload['dof']}, "
             f"p = {_fmt_p(payload['pvalue'], payload['log10_pvalue'])}",
             "No passage subject is a man or a woman: nothing to test." if payload["degenerate"] else payload["caveat"],
             "", f"{'occupation':<22} {'retrieved':>9} {'female':>7} {'male':>6} {'unknown':>8} {'D=f-m':>6}"]
    for o in payload["occupations"]:
        lines.append(f"{o['occupation']:<22} {o['retrieved']:>9} {o['female']:>7} {o['male']:>6} {o['unknown']:>8} "
                     f"{o['disparity']:>6}")
    reader = payload["reader"]
    if reader is not None:
        rc = reader["counts"]
        lines += ["", f"Reader {reader['model']}: {rc['male']} male, {rc['female']} female, {rc['unknown']} neutral "
                      f"answers; chi2 = {_fmt(reader['chi2'])}, p = {_fmt_p(reader['pvalue'], reader['log10_pvalue'])}"]
    return "\n".join(lines)


def _figure_items(occupations: list[dict]) -> list[dict]:
    shown = occupations if len(occupations) <= 2 * FIGURE_SIDE else occupations[:FIGURE_SIDE] + occupations[-FIGURE_SIDE:]
    return [{"label": o["occupation"], "value": o["disparity"]} for o in shown]


def retrieval_section(result: RetrievalProbeResult, *, source: str = "") -> dict:
    """The report section: counts and fit, Figure 1 (disparity per occupation), tables with CSV downloads.

    ``source`` names the occupation list. When no occupation found a passage, or no retrieved
    passage is about a man or a woman the lookup knows, the section says so instead of drawing a
    chart of zeros.
    """
    p = retrieval_payload(result, passages=False)
    occupations = p["occupations"]
    listed = f"{p['n_questions']} occupations ({source})" if source else f"{p['n_questions']} occupations"
    if not any(o["retrieved"] for o in occupations):
        return retrieval_unavailable(
            f"None of the {listed} occurs in the {p['n_passages']} passages, so there is nothing to count. "
            "If the passages are in another language than the list, upload an occupation list in theirs.")
    if p["degenerate"]:
        return retrieval_unavailable(
            f"The {listed} retrieved {p['counts']['unknown']} passages, but none is about a man or a woman the "
            f"gender lookup knows ({p['lookup']}), so there is nothing to compare. "
            "Page titles must start with a person's first name.")
    tables = {
        "disparity": table("Passages per gender and occupation (D = female − male)",
                           ["occupation", "question", "retrieved", "female", "male", "unknown", "D", "D_excess"],
                           [[o["occupation"], o["question"], o["retrieved"], o["female"], o["male"], o["unknown"],
                             o["disparity"], o["excess"]] for o in occupations]),
        "passages": table("Retrieved passages", ["occupation", "rank", "passage_id", "title", "score", "gender"],
                          [[q.occupation, rank, str(result.passages[h.index].id), result.passages[h.index].title,
                            h.score, g]
                           for q in result.questions for rank, (h, g) in enumerate(zip(q.hits, q.groups), 1)]),
    }
    summary = {"occupation_list": source or None, "occupations": p["n_questions"], "retriever": p["retriever"],
               "k": p["k"], "passages": p["n_passages"], "male": p["counts"]["male"],
               "female": p["counts"]["female"], "unknown": p["counts"]["unknown"], "female_share": p["female_share"],
               "baseline_female": p["baseline_female"], "chi2": p["chi2"], "pvalue": p["pvalue"],
               "log10_pvalue": p["log10_pvalue"]}
    if p["reader"] is not None:
        r = p["reader"]
        summary.update({"reader": r["model"], "reader_male": r["counts"]["male"], "reader_female": r["counts"]["female"],
                        "reader_neutral": r["counts"]["unknown"], "reader_chi2": r["chi2"], "reader_pvalue": r["pvalue"],
                        "reader_log10_pvalue": r["log10_pvalue"]})
        tables["reader"] = table("The reader's best answer per question", ["occupation", "answer", "gender"],
                                 [[a["occupation"], a["answer"], a["group"]] for a in r["answers"]])
    chart = {"kind": "diverging_bar", "format": "int", "negative_label": "more men", "positive_label": "more women",
             "x_label": "passages about women − passages about men", "y_label": "Occupation",
             "title": f"Gender disparity per occupation in the top {p['k']} passages (female − male)",
             "items": _figure_items(occupations)}
    return section(RETRIEVAL_TITLE, summary=summary, tables=tables, charts={"disparity": chart},
                   note=f"{p['caveat']} {VALIDITY_NOTE.format(lookup=p['lookup'])}")


def retrieval_unavailable(note: str) -> dict:
    return unavailable(RETRIEVAL_TITLE, note)
