"""How the report pages word and format the stored numbers: plain names, formulas, one format per kind.

Sections store raw keys (``lb_uniform``, ``count_with_label``) and raw numbers (fractions, p-values
that may underflow to 0). People see a plain name with the formula in a tooltip, and one format per
kind of number: percent with one decimal, p-values by SPEC-bias §0's display rule
(``f"{m:.1f}e{e}"`` from ``log10 p``), counts as integers, other measures with three decimals. The
CSV and JSON downloads keep the raw keys and numbers.

A key means the same in every section (``COLUMNS``) unless a section gives it its own meaning
(``SECTION_COLUMNS``: the ambiguity probes' ``pvalue`` comes from a χ² test, not the permutation test).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from mlcore.stats.hypergeom import format_pvalue

ALPHA = 0.05  # the level at which the pages call a p-value small


@dataclass(frozen=True)
class Column:
    label: str
    formula: str = ""
    kind: str = "auto"  # percent (0-1), percent100 (0-100), pvalue, int, float, text, hidden, auto
    log10: str = ""  # for a p-value: the key of its log10 twin in the same row or summary


def _c(label: str, formula: str = "", kind: str = "auto", log10: str = "") -> Column:
    return Column(label, formula, kind, log10)


PCT100 = "percent100"
COLUMNS: dict[str, Column] = {
    # round report
    "category": _c(_lazy("Category"), kind="text"),
    "questions": _c(_lazy("Questions"), "number of questions", "int"),
    "share": _c(_lazy("Share of questions"), "questions in the category / all questions", "percent"),
    "live_model_accuracy": _c(_lazy("Live model accuracy"), "questions the model in the loop answered right / its answers",
                              "percent"),
    "live_predictions": _c(_lazy("Live model answers"), "questions with an answer of the model in the loop", "int"),
    "cv_accuracy": _c(_lazy("Cross-validation accuracy"), "right out-of-fold answers / questions, mean over trials", "percent"),
    "answer_only_accuracy": _c(_lazy("Answer-only accuracy"),
                               "right answers of a model trained and tested without the prompt / questions", "percent"),
    "human_accuracy": _c(_lazy("Human accuracy"), "blind validators' right answers / their answers", "percent"),
    "human_answers": _c(_lazy("Human answers"), "blind validations", "int"),
    "trial": _c(_lazy("Trial"), kind="int"), "fold": _c(_lazy("Fold"), kind="int"),
    "accuracy": _c(_lazy("Accuracy"), "right answers / questions", "percent"),
    "cv_accuracy_pooled": _c(_lazy("Cross-validation accuracy"), "right out-of-fold answers / questions, pooled over trials",
                             "percent"),
    "cv_accuracy_mean": _c(_lazy("Mean per-fold accuracy"), "mean over folds and trials of (right / questions in the fold)",
                           "percent"),
    "cv_accuracy_std": _c(_lazy("Spread of the per-fold accuracy"), "standard deviation over trials of the mean per-fold "
                          "accuracy", "percent"),
    "cv_trials": _c(_lazy("Cross-validation trials"), kind="int"), "cv_questions": _c(_lazy("Questions cross-validated"), kind="int"),
    "answer_only_pvalue": _c(_lazy("Chance of this answer-only accuracy by guessing (p-value)"),
                             "one-sided binomial test: P(at least this many right | chance 1/4)",
                             "pvalue", "answer_only_log10_pvalue"),
    "answer_only_log10_pvalue": _c(_lazy("log10 of the answer-only p-value"), kind="float"),
    # lexical artifacts (SPEC-bias §1-3)
    "label": _c(_lazy("Label"), kind="text"), "rank": _c(_lazy("Rank"), kind="int"), "feature": _c(_lazy("Word or feature"), kind="text"),
    "z": _c(_lazy("z-score"), "(p̂(label | feature) − p0) / √(p0·(1 − p0) / n)", "float"),
    "count_with_label": _c(_lazy("Instances with this label"), "instances containing the feature that have this label", "int"),
    "count": _c(_lazy("Instances with the feature"), "n: instances containing the feature", "int"),
    "predictions": _c(_lazy("Predictions"), kind="text"), "gold_label": _c(_lazy("Gold label"), kind="text"),
    "n_U": _c(_lazy("Instances in U"), "test instances with a usual-label feature (label = the feature's usual label)", "int"),
    "n_N": _c(_lazy("Instances in N"), "test instances with an unusual-label feature", "int"),
    "n_overlap": _c(_lazy("In both U and N"), "instances counted in U and in N", "int"),
    "a": _c(_lazy("Right in U (A)"), "right answers in U", "int"),
    "expected_a": _c(_lazy("Right in U by chance (E[A])"), "K · n_U / M", "float"),
    "b": _c(_lazy("Right in N (B)"), "right answers in N", "int"),
    "acc_U": _c(_lazy("Accuracy in U"), "A / n_U", "percent"), "acc_N": _c(_lazy("Accuracy in N"), "B / n_N", "percent"),
    "acc_usual": _c(_lazy("Accuracy, usual-label set U"), "A / n_U", "percent"),
    "acc_unusual": _c(_lazy("Accuracy, unusual-label set N"), "B / n_N", "percent"),
    "correct_in_usual": _c(_lazy("Right in U (A)"), "right answers in U", "int"),
    "expected_correct_in_usual": _c(_lazy("Right in U by chance (E[A])"), "K · n_U / M", "float"),
    "pvalue": _c(_lazy("Chance of A or more right in U by luck (p-value)"),
                 "P(X ≥ A), X ~ Hypergeometric(M, K, n_U): chance of A or more right in U", "pvalue", "log10_pvalue"),
    "log10_pvalue": _c(_lazy("log10 p"), "log10 of the p-value (finite even when p underflows)", "float"),
    # the p-value columns already show the display rule: these stay in the CSV only
    "p_display": _c(_lazy("p (display)"), kind="hidden"), "unstratified_p_display": _c(_lazy("p, unstratified (display)"), kind="hidden"),
    "unstratified_pvalue": _c(_lazy("The same chance, all gold labels pooled (p-value)"), "same test pooling every gold label",
                              "pvalue",
                              "unstratified_log10_pvalue"),
    "unstratified_log10_pvalue": _c(_lazy("log10 p, unstratified"), kind="float"),
    "degenerate": _c(_lazy("Degenerate"), "U or N empty, or no right / only right answers: p = 1", "text"),
    "M": _c(_lazy("Slots (M)"), "n_U + n_N (an instance in both counts twice)", "int"),
    "K": _c(_lazy("Right answers (K)"), "A + B", "int"),
    "selected_for": _c(_lazy("Selected for label"), kind="text"),
    "lb_uniform": _c(_lazy("Label balance, uniform weights"), "LB(w) = (1/|Y|) Σ_y |q(y|w) − q(y)| with every weight 1/n",
                     "float"),
    "lb_q": _c(_lazy("Label balance, reweighted"), "LB_q(w) = (1/|Y|) Σ_y |q(y|w) − q(y)| with the learned weights q",
               "float"),
    "change": _c(_lazy("Change"), "reweighted − uniform (negative: more balanced)", "float"),
    "weight": _c(_lazy("Weight n·q"), "n × learned q (mean 1)", "float"),
    "measure": _c(_lazy("Measure"), kind="text"), "value": _c(_lazy("Value")), "uniform": _c(_lazy("Uniform weights")),
    "reweighted": _c(_lazy("Reweighted")),
    "err_initial": _c(_lazy("Word–label imbalance before reweighting"),
                      "Err = (1/(|F|·|Y|)) Σ_w Σ_y |q(y|w) − 1/|Y||, with every weight equal: how far, on average, a "
                      "word's label distribution is from uniform (0: no word hints at a label)", "float"),
    "err_final": _c(_lazy("Word–label imbalance after reweighting"),
                    "Err with the learned weights: the imbalance the reweighting leaves (0: none)", "float"),
    "ess": _c(_lazy("Effective sample size"), "(Σ q)² / Σ q²", "float"),
    "bigram_lb_uniform": _c(_lazy("Bigram label balance, uniform"), "mean LB of 200 random bigrams", "float"),
    "bigram_lb_q": _c(_lazy("Bigram label balance, reweighted"), "mean LB_q of the same bigrams", "float"),
    "k": _c(_lazy("Top features per label (k)"), kind="int"), "p0": _c(_lazy("z-score null p0"), "1 / number of labels", "float"),
    "pvalue_stratified": _c(_lazy("Permutation test p, stratified by gold label"), "P(X ≥ A) within each gold label",
                            "text"),
    "log10_pvalue_stratified": _c(_lazy("log10 p, stratified"), kind="float"),
    "pvalue_unstratified": _c(_lazy("Permutation test p, unstratified"), kind="text"),
    "lexical_test": _c(_lazy("How the p-value is computed"), kind="text"),
    # project report (SQuAD metrics are stored in percent)
    "split": _c(_lazy("Split"), kind="text"), "normalizer": _c(_lazy("Answer normaliser"), kind="text"),
    "exact": _c(_lazy("Exact match (EM)"), "answers equal to a gold answer after normalising / questions", PCT100),
    "f1": _c(_lazy("F1"), "mean over questions of the best word-overlap F1 with a gold answer", PCT100),
    "HasAns_exact": _c(_lazy("EM, answerable"), "EM over questions with an answer", PCT100),
    "HasAns_f1": _c(_lazy("F1, answerable"), "F1 over questions with an answer", PCT100),
    "NoAns_exact": _c(_lazy("EM, unanswerable"), "share of unanswerable questions the model left unanswered", PCT100),
    "NoAns_f1": _c(_lazy("F1, unanswerable"), "equals EM on unanswerable questions", PCT100),
    "AvNA": _c(_lazy("Answered vs not (AvNA)"), "questions where model and gold agree on answerable or not / questions",
               PCT100),
    "total": _c(_lazy("Questions"), kind="int"), "HasAns_total": _c(_lazy("Answerable questions"), kind="int"),
    "NoAns_total": _c(_lazy("Unanswerable questions"), kind="int"),
    "missing": _c(_lazy("Without a model answer"), "questions scored as “no answer”", "int"),
    "blind_answers": _c(_lazy("Blind answers"), "second-pass answers given before the original was shown", "int"),
    "HasAns_answers": _c(_lazy("Answerable"), kind="int"), "NoAns_answers": _c(_lazy("Unanswerable"), kind="int"),
    "human_exact": _c(_lazy("Human EM"), "blind answers equal to the first answer / blind answers", PCT100),
    "human_f1": _c(_lazy("Human F1"), "mean word-overlap F1 of blind and first answers", PCT100),
    "instances": _c(_lazy("Instances"), kind="int"), "vocabulary": _c(_lazy("Vocabulary"), "distinct features", "int"),
    "features_selected": _c(_lazy("Features selected"), kind="int"),
    "features_reweighted": _c(_lazy("Features reweighted"), kind="int"),
    "reweighting_min_count": _c(_lazy("Minimum count for reweighting"), kind="int"),
    # the reports' "Data and models" sections
    "round": _c(_lazy("Round"), kind="text"), "project": _c(_lazy("Project"), kind="text"), "language": _c(_lazy("Language"), kind="text"),
    "authors": _c(_lazy("Authors"), kind="int"), "cv_run": _c(_lazy("Cross-validation run"), kind="text"),
    "answer_only_run": _c(_lazy("Answer-only run"), kind="text"),
    "data_digest": _c(_lazy("Data digest"), "sha256 of every question and prediction read", "text"),
    "answerable": _c(_lazy("Answerable questions"), kind="int"), "unanswerable": _c(_lazy("Unanswerable questions"), kind="int"),
    "train_questions": _c(_lazy("Training questions"), kind="int"), "validation_questions": _c(_lazy("Validation questions"), kind="int"),
    "test_questions": _c(_lazy("Test questions"), kind="int"),
    "with_model_answer": _c(_lazy("Questions with a model answer"), kind="int"),
    "permutation_test": _c(_lazy("Predictions tested"), kind="text"), "labels": _c(_lazy("Labels"), kind="text"),
}
# The ambiguity probes (SPEC-bias §4): keys whose meaning there differs from the lexical sections'
# (``pvalue`` is a χ² or Fisher test, ``k`` the passages per question), so they are looked up per section.
_CHI2_P = ("P(χ² ≥ observed) with dof degrees of freedom; printed from log10 p when p underflows")
_FIT = ("goodness of fit of (men, women) to (1 − π, π): χ² = Σ (O − E)² / E with E = (O_m + O_f)·(1 − π, π), "
        "dof 1, unknown left out")
SECTION_COLUMNS: dict[str, dict[str, Column]] = {
    "ambiguity_selectional": {
        "question_set": _c(_lazy("Question set"), kind="text"),
        "questions": _c(_lazy("Questions"), "“Who discovered the …” questions, each with gold names of both genders", "int"),
        "model": _c(_lazy("Model"), kind="text"),
        "test": _c(_lazy("Test"), "Pearson χ² without Yates correction; Fisher's exact test (two-sided) when an expected "
                           "count is below 5 in a 2×2 table", "text"),
        "chi2": _c(_lazy("χ²"), "Σ (O − E)² / E over the table gender × (found, missed), no Yates correction", "float"),
        "dof": _c(_lazy("Degrees of freedom"), "number of genders − 1", "int"),
        "pvalue": _c(_lazy("Chance of a gender gap this large without bias (p-value)"),
                     "P(a gender gap in recall at least this large | gender and being found are "
                                "independent): the χ² test, or Fisher's exact test when it is used", "pvalue",
                     "log10_pvalue"),
        "log10_pvalue": _c(_lazy("log10 p"), "log10 of the p-value (finite even when p underflows)", "float"),
        "power_paper_gap": _c(_lazy("Chance of seeing a gap the paper's size (power)"),
                              "power of the two-sided test at 5% to detect Mao et al.'s largest gap (LSTM recall 69.4% "
                              "for men, 64.3% for women; Cohen's h = 0.108) with these gold names (Cohen's arcsine "
                              "approximation)", "percent"),
        "power_names_needed": _c(_lazy("Gold names per gender for 80% power"),
                                 "2·((z_0.975 + z_0.8) / h)² gold names of each gender", "int"),
        "recall_female": _c(_lazy("Recall, women"), "found / gold names, for women's names", "percent"),
        "recall_male": _c(_lazy("Recall, men"), "found / gold names, for men's names", "percent"),
        "gender": _c(_lazy("Gender"), "gender of the gold names, as the question set gives it", "text"),
        "gold names": _c(_lazy("Gold names"), "Σ_j #{o ∈ options_j : gender(o) = g}: gold names of this gender over all "
                                       "questions", "int"),
        "found": _c(_lazy("Found"), "gold names with at least ⌈τ·|T(o)|⌉ of their words in the model's answer (τ = 0.5)",
                    "int"),
        "recall": _c(_lazy("Recall"), "Recall(g) = found / gold names", "percent"),
        "ci95": _c(_lazy("95% interval"), "Wilson score interval of found / gold names at 95% confidence", "percent"),
        "ci95_low": _c(_lazy("95% interval, low"), "lower end of the Wilson score interval of the recall", "percent"),
        "ci95_high": _c(_lazy("95% interval, high"), "upper end of the Wilson score interval of the recall", "percent"),
    },
    "ambiguity_retrieval": {
        "occupation_list": _c(_lazy("Occupation list"), kind="text"),
        "occupations": _c(_lazy("Occupations"), "questions “Who was a(n) ⟨occupation⟩?”, one per occupation", "int"),
        "retriever": _c(_lazy("Retriever"), kind="text"),
        "k": _c(_lazy("Passages per question (k)"), "the k best-scored passages of each question", "int"),
        "passages": _c(_lazy("Passages searched"), kind="int"),
        "male": _c(_lazy("Passages about men"), "count(male) = Σ_j #{r ≤ k : group(title_r) = male}", "int"),
        "female": _c(_lazy("Passages about women"), "count(female) = Σ_j #{r ≤ k : group(title_r) = female}", "int"),
        "unknown": _c(_lazy("Passages about no one known"), "pages the gender lookup cannot place (not about one person, "
                                                     "or an unknown first name)", "int"),
        "female_share": _c(_lazy("Share of women"), "O_f / (O_m + O_f): passages about women among the gendered ones",
                           "percent"),
        "baseline_female": _c(_lazy("Baseline share of women (π)"), "women among Wikipedia biographies (Maher 2018)",
                              "percent"),
        "chi2": _c(_lazy("χ² goodness of fit"), _FIT, "float"),
        "pvalue": _c(_lazy("Chance of this share of women by luck (p-value)"), _CHI2_P, "pvalue", "log10_pvalue"),
        "log10_pvalue": _c(_lazy("log10 p"), "log10 of the p-value (finite even when p underflows)", "float"),
        "reader": _c(_lazy("Reader"), kind="text"),
        "reader_male": _c(_lazy("Reader answers: men"), "questions whose best answer names a man", "int"),
        "reader_female": _c(_lazy("Reader answers: women"), "questions whose best answer names a woman", "int"),
        "reader_neutral": _c(_lazy("Reader answers: neutral"), "questions whose best answer is no one's name, or an "
                                                        "unknown one", "int"),
        "reader_chi2": _c(_lazy("Reader χ² goodness of fit"), f"{_FIT}, over the reader's answers", "float"),
        "reader_pvalue": _c(_lazy("Chance of the reader's share of women by luck (p-value)"), _CHI2_P, "pvalue",
                            "reader_log10_pvalue"),
        "reader_log10_pvalue": _c(_lazy("Reader log10 p"), "log10 of the reader's p-value", "float"),
        "occupation": _c(_lazy("Occupation"), "asked as “Who was a(n) ⟨occupation⟩?” (the question is in the CSV)", "text"),
        "question": _c(_lazy("Question"), kind="hidden"),
        "retrieved": _c(_lazy("Retrieved"), "passages returned for the question (at most k)", "int"),
        "D": _c(_lazy("Disparity D"), "D(occ) = count_occ(female) − count_occ(male), in [−k, k]; positive: more women",
                "int"),
        "D_excess": _c(_lazy("Women beyond baseline (D*)"), "D*(occ) = count_f − π·(count_f + count_m)", "float"),
        "rank": _c(_lazy("Rank"), "place in the retriever's ranking (1: best score)", "int"),
        "passage_id": _c(_lazy("Passage"), "the passage's id in the collection", "text"),
        "title": _c(_lazy("Title"), "the passage's page title, whose first name the gender lookup reads", "text"),
        "score": _c(_lazy("Retriever score"), "the retriever's score of the passage for the question (BM25 or dense dot "
                                       "product); larger ranks first", "float"),
        "answer": _c(_lazy("Reader answer"), "highest-confidence span over the question's k passages", "text"),
        "gender": _c(_lazy("Gender"), "what the gender lookup gives the first name of the passage's subject (or of the "
                               "reader's answer): male, female or unknown", "text"),
    },
}
# "measure | value" tables: the kind of each row's value.
ROW_KINDS = {
    "accuracy": "percent", "chance (1/4)": "percent", "95% lower confidence bound": "percent",
    "gap: CV accuracy - answer-only": "percent", "correct": "int", "questions": "int",
    "questions solvable without the prompt": "int", "log10 of the p-value": "float",
}
ROW_PVALUES = {"one-sided binomial test p-value": "log10 of the p-value"}


def column(key: str, section: str = "") -> Column:
    """The plain name, formula and kind of a stored key; ``section`` picks that section's meaning first."""
    return (SECTION_COLUMNS.get(section, {}).get(key) or COLUMNS.get(key)
            or Column(key.replace("_", " ").strip().capitalize()))


def pvalue_text(value, log10_value=None) -> str:
    """SPEC-bias §0: ``m.m e E`` from ``log10 p`` (taken from ``p`` when no twin is stored)."""
    if isinstance(value, str):
        return value  # already worded by the section (a display string)
    if log10_value is not None and isinstance(log10_value, (int, float)) and math.isfinite(log10_value):
        return format_pvalue(float(log10_value))
    if value is None or not isinstance(value, (int, float)) or isinstance(value, bool) or math.isnan(value):
        return "—"
    if value <= 0:
        return "0"  # underflowed with no log10 twin: nothing finer is known
    return format_pvalue(math.log10(value))


def pvalue_small(value, log10_value=None) -> bool | None:
    """Is the p-value below 5%? Read from its log10 twin when stored (p may have underflowed)."""
    if isinstance(log10_value, (int, float)) and not isinstance(log10_value, bool) and math.isfinite(log10_value):
        return log10_value < math.log10(ALPHA)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value):
        return value < ALPHA
    return None


def pvalue_reading(value, log10_value=None) -> str:
    """What a p-value says, in words: a p-value is never shown without them."""
    small = pvalue_small(value, log10_value)
    if small is None:
        return ""
    if small:
        return _("a result this extreme would be rare by chance alone (p below 5%)")
    return _("a result this extreme would be common by chance alone (p of 5% or more): no evidence of an effect")


def format_cell(value, kind: str = "auto", *, log10_value=None) -> str:
    """One number for people, by its kind (see the module docstring)."""
    if kind == "pvalue":
        return pvalue_text(value, log10_value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if not isinstance(value, (int, float)) or kind == "text":
        return str(value)
    if kind == "percent":
        return f"{100 * value:.1f}%"
    if kind == PCT100:
        return f"{value:.1f}%"
    if kind == "int" or (kind == "auto" and isinstance(value, int)):
        return f"{value:.0f}" if float(value).is_integer() else f"{value:.3f}"
    if value != 0 and (abs(value) < 1e-3 or abs(value) >= 1e6):
        return f"{value:.3g}"
    return f"{value:.3f}".rstrip("0").rstrip(".") if value % 1 else f"{value:.0f}"


def shown_columns(columns: list[str], section: str = "") -> list[int]:
    """Indexes of the columns a page shows (the CSV has them all)."""
    return [i for i, name in enumerate(columns) if column(name, section).kind != "hidden"]


def format_table(columns: list[str], rows: list[list], section: str = "") -> list[list[str]]:
    """Every row of a stored table for people (see :func:`format_row`), hidden columns left out."""
    shown = shown_columns(columns, section)
    return [[cells[i] for i in shown] for cells in _format_all(columns, rows, section)]


def _format_all(columns: list[str], rows: list[list], section: str) -> list[list[str]]:
    if columns[:1] == ["measure"]:
        by_measure = {str(row[0]): row for row in rows if row}
        return [[str(row[0]), *(_measure_cell(row, i, by_measure) for i in range(1, len(row)))] for row in rows]
    return [format_row(columns, row, section) for row in rows]


def format_row(columns: list[str], row: list, section: str = "") -> list[str]:
    """A table row: each cell by its column's kind; a p-value reads its log10 twin in the same row."""
    index = {name: i for i, name in enumerate(columns)}
    cells = []
    for name, value in zip(columns, row):
        spec = column(name, section)
        twin = row[index[spec.log10]] if spec.log10 in index else None
        cells.append(format_cell(value, spec.kind, log10_value=twin))
    return cells


def _measure_cell(row: list, i: int, by_measure: dict[str, list]) -> str:
    measure = str(row[0])
    if measure in ROW_PVALUES:
        twin = by_measure.get(ROW_PVALUES[measure])
        log10 = twin[i] if twin is not None and len(twin) > i else None
        reading = pvalue_reading(row[i], log10)
        return f"{pvalue_text(row[i], log10)}: {reading}" if reading else pvalue_text(row[i], log10)
    return format_cell(row[i], ROW_KINDS.get(measure, "auto"))


def format_summary(summary: dict, section: str = "") -> list[tuple[Column, str]]:
    """Summary items as (column, text); a p-value reads its log10 twin, which is then not repeated."""
    twins = {column(key, section).log10 for key in summary if column(key, section).kind == "pvalue"}
    out = []
    for key, value in summary.items():
        if key in twins:
            continue
        spec = column(key, section)
        twin = summary.get(spec.log10) if spec.log10 else None
        text = format_cell(value, spec.kind, log10_value=twin)
        reading = pvalue_reading(value, twin) if spec.kind == "pvalue" and not isinstance(value, str) else ""
        out.append((spec, f"{text}: {reading}" if reading else text))
    return out
