"""Template filters of the report pages: one format per kind of number (evaluation/reports/format.py)."""
from django import template

from evaluation.reports.format import format_cell, pvalue_reading, pvalue_text

register = template.Library()


@register.filter
def pvalue(value, log10_value=None) -> str:
    """A p-value by SPEC-bias §0's display rule, ``m.m e E`` from its log10 twin (``3.8e-2475``)."""
    return pvalue_text(value, log10_value)


@register.filter
def pvalue_words(value, log10_value=None) -> str:
    """What the p-value says, in words (read next to every p-value shown)."""
    return pvalue_reading(value, log10_value)


@register.filter
def measure(value) -> str:
    """Any other measure (a χ² statistic): at most three decimals, ``None`` as an em dash."""
    return format_cell(value, "float")
