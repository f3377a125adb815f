"""The report pages' number formats: p-values by SPEC-bias §0's display rule, percent with one decimal."""
import math

from django.template import Context, Template

from evaluation.reports.format import column, format_row, format_summary, format_table
from evaluation.templatetags.evaluation_format import pvalue


def test_p_values_follow_the_spec_display_rule():
    assert pvalue(0.04321) == "4.3e-2" and pvalue(1.0) == "1.0e0"
    assert pvalue(3.7931e-09, math.log10(3.7931e-09)) == "3.8e-9"
    assert pvalue(0.0, -2474.4199025919) == "3.8e-2475"  # SPEC R11's display
    assert pvalue(0.0) == "0" and pvalue(None) == "—" and pvalue(float("nan"), float("nan")) == "—"
    assert pvalue("3.8e-2475") == "3.8e-2475"  # already worded by the section


def test_the_filters_in_a_template():
    template = Template("{% load evaluation_format core_i18n %}p = {{ s.pvalue|pvalue:s.log10_pvalue }}, {{ s.acc|percent:1 }}")
    assert template.render(Context({"s": {"pvalue": 0.0, "log10_pvalue": -400.5, "acc": 0.4567}})) == "p = 3.2e-401, 45.7%"


def test_columns_have_plain_names_and_formulas():
    assert column("lb_uniform").label == "Label balance, uniform weights" and "Σ_y" in column("lb_uniform").formula
    assert column("count_with_label").label == "Instances with this label"
    assert column("some_new_key").label == "Some new key"  # never raw snake_case
    # The ambiguity probes' keys (SPEC-bias §4) with their own meaning there.
    assert column("recall", "ambiguity_selectional").label == "Recall"
    assert column("recall", "ambiguity_selectional").formula == "Recall(g) = found / gold names"
    assert column("pvalue", "ambiguity_selectional").formula.startswith("P(a gender gap in recall")
    assert "Hypergeometric" in column("pvalue").formula and "Hypergeometric" in column("pvalue", "lexical").formula
    assert column("k", "ambiguity_retrieval").label == "Passages per question (k)"
    assert column("D_excess", "ambiguity_retrieval").formula == "D*(occ) = count_f − π·(count_f + count_m)"
    assert column("lb_uniform", "ambiguity_retrieval") == column("lb_uniform")  # the shared keys stay shared


RARE = "a result this extreme would be rare by chance alone (p below 5%)"


def test_one_format_per_kind_in_rows_and_summaries():
    columns = ["category", "questions", "live_model_accuracy", "pvalue", "log10_pvalue", "exact"]
    assert format_row(columns, ["idioms", 12, 0.25, 0.0, -300.25, 71.234]) == \
        ["idioms", "12", "25.0%", "5.6e-301", "-300.25", "71.2%"]
    summary = format_summary({"answer_only_pvalue": 0.01, "answer_only_log10_pvalue": -2.0, "cv_accuracy_pooled": 0.5})
    assert [(c.label, text) for c, text in summary] == [
        ("Chance of this answer-only accuracy by guessing (p-value)", f"1.0e-2: {RARE}"),
        ("Cross-validation accuracy", "50.0%")]
    assert format_row(["gender", "gold names", "found", "recall", "ci95_low", "ci95_high"],
                      ["female", 100, 64, 0.64, 0.5422, None], "ambiguity_selectional") == \
        ["female", "100", "64", "64.0%", "54.2%", "—"]
    summary = format_summary({"female_share": 1 / 3, "chi2": 2.04081632, "pvalue": 0.0, "log10_pvalue": -400.5},
                             "ambiguity_retrieval")
    assert [(c.label, text) for c, text in summary] == [("Share of women", "33.3%"), ("χ² goodness of fit", "2.041"),
                                                        ("Chance of this share of women by luck (p-value)",
                                                         f"3.2e-401: {RARE}")]


def test_measure_value_tables_format_each_row_by_its_measure():
    rows = [["accuracy", 0.3125], ["correct", 10], ["one-sided binomial test p-value", 0.0],
            ["log10 of the p-value", -512.5]]
    assert format_table(["measure", "value"], rows) == \
        [["accuracy", "31.2%"], ["correct", "10"], ["one-sided binomial test p-value", f"3.2e-513: {RARE}"],
         ["log10 of the p-value", "-512.5"]]
