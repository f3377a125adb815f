"""Template filters of the report pages."""
import math

from django import template

from mlcore.stats.hypergeom import format_pvalue

register = template.Library()


@register.filter
def pvalue(value, log10_value=None) -> str:
    """A p-value for people: 4 decimals, 3 significant digits below 0.001, and, once it has
    underflowed to 0, the SPEC §0 display rule applied to its log10 twin (``3.8e-2475``)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    value = float(value)
    if value == 0.0 and log10_value is not None and math.isfinite(float(log10_value)):
        return format_pvalue(float(log10_value))
    return f"{value:.3g}" if 0 < value < 1e-3 else f"{value:.4f}"
