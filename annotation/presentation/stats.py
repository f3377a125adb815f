"""The project dashboard's charts, from the numbers ``annotation.selectors.stats.project_stats`` read."""
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from annotation.selectors.stats import ProjectStats


def stats_charts(stats: ProjectStats) -> list[dict]:
    """Chart JSON for ``core.charts.chart_view`` (Vega-Lite, drawn in the browser)."""
    charts = [
        {"kind": "bar", "title": _("Paragraphs done per split"), "format": "percent", "max": 1.0,
         "x_label": _("share of the split's paragraphs done"), "y_label": _("Split"), "value_label": _("done"),
         "items": [{"label": s.label, "value": s.done_share} for s in stats.splits]},
        {"kind": "bar", "title": _("Questions per paragraph"), "format": "int", "x_label": _("paragraphs"),
         "y_label": _("Questions on the paragraph"), "value_label": _("paragraphs"),
         "items": [{"label": label, "value": n} for label, n in stats.questions_per_paragraph]},
        {"kind": "bar", "title": _("Answer length in words (first answers)"), "format": "int", "x_label": _("answers"),
         "y_label": _("Words in the answer"), "value_label": _("answers"),
         "items": [{"label": label, "value": n} for label, n in stats.answer_words]},
    ]
    if stats.human:
        charts.append({
            "kind": "grouped_bar",
            "title": ngettext("Human EM/F1 from %(count)s blind second-pass answer (vs the first answer)",
                              "Human EM/F1 from %(count)s blind second-pass answers (vs the first answer)",
                              stats.blind_answers) % {"count": stats.blind_answers},
            "format": "float", "max": 100.0, "groups": ["EM", "F1"], "x_label": _("score (0-100)"),
            "y_label": _("Measure"), "value_label": _("score"),
            "series": [{"name": _("%(normalizer)s normaliser") % {"normalizer": h.normalizer}, "values": [h.exact, h.f1]}
                       for h in stats.human],
        })
    return charts
