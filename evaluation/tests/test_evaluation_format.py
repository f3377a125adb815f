"""The report pages' p-value filter: readable digits, and the log10 twin once p underflowed."""
import math

from django.template import Context, Template

from evaluation.templatetags.evaluation_format import pvalue


def test_ordinary_small_underflowed_and_missing_p_values():
    assert pvalue(0.04321) == "0.0432" and pvalue(1.0) == "1.0000"
    assert pvalue(3.7931e-09, math.log10(3.7931e-09)) == "3.79e-09"
    assert pvalue(0.0, -2474.4199025919) == "3.8e-2475"  # SPEC R11's display
    assert pvalue(0.0) == "0.0000" and pvalue(None) == "—" and pvalue(float("nan"), float("nan")) == "—"


def test_the_filter_in_a_template():
    template = Template("{% load evaluation_format %}p = {{ s.pvalue|pvalue:s.log10_pvalue }}")
    assert template.render(Context({"s": {"pvalue": 0.0, "log10_pvalue": -400.5}})) == "p = 3.2e-401"
