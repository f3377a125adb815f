"""The quality report's charts (chart JSON for the one chart module, ``core/charts.py``, which
turns them into Vega-Lite specs with a data table beside each).

Pure functions of the report dict (``selectors.quality.round_quality_report``), no queries.
"""
from django.utils.translation import gettext as _

from collector.presentation.format import category_name
from collector.selectors.item_quality import RoundItemQuality

GOOD_QUALITY = 0.5  # the item map highlights questions at or above it


def accuracy_chart(report: dict) -> dict | None:
    """Human accuracy overall and per category, with 95% Wilson intervals."""
    accuracy = report["human_accuracy"]
    if not accuracy["n"]:
        return None
    rows = [(_("All questions"), accuracy)] + [(category_name(row["category"]).capitalize(), row)
                                               for row in accuracy["per_category"]]
    items = [{"label": label, "value": row["accuracy"], "low": row["ci"]["low"], "high": row["ci"]["high"],
              "detail": _("%(count)s answers") % {"count": row["n"]}} for label, row in rows]
    return {"kind": "bar", "title": _("Human accuracy per category (95% Wilson interval)"), "format": "percent",
            "max": 1.0, "x_label": _("share of blind answers matching the key"), "y_label": _("Category"),
            "value_label": _("accuracy"), "items": items}


def workload_chart(report: dict) -> dict | None:
    """Validations per validator (the 15 busiest); the tooltip adds the median seconds per question."""
    validators = report["validators"][:15]
    if not validators:
        return None
    items = [{"label": v["validator"], "value": v["validations"],
              "detail": _("median %(seconds)s s per question") % {"seconds": f"{v['median_seconds']:.0f}"}}
             for v in validators]
    return {"kind": "bar", "title": _("Validations per validator"), "format": "int", "x_label": _("validations"),
            "y_label": _("Validator"), "value_label": _("validations"), "items": items}


def coach_chart(report: dict) -> dict | None:
    """How often each warning was shown, and how often it was heeded before submitting."""
    rows = report["coach"]
    if not any(row["shown"] for row in rows):
        return None
    return {"kind": "grouped_bar", "title": _("Coach warnings: shown and heeded before submitting"), "format": "int",
            "x_label": _("times"), "y_label": _("Warning"), "value_label": _("times"),
            "groups": [str(row["label"]).split(":")[0][:40] for row in rows],
            "series": [{"name": _("shown"), "values": [row["shown"] for row in rows]},
                       {"name": _("heeded"), "values": [row["heeded"] for row in rows]}]}


def item_map_chart(quality: RoundItemQuality) -> dict | None:
    """The item map: each question's IRT difficulty against its discrimination, good quality highlighted."""
    if not quality.ready:
        return None
    points = [{"x": item.difficulty, "y": item.discrimination, "label": f"#{item.question_id}",
               "highlight": item.quality >= GOOD_QUALITY} for item in quality.items.values()]
    return {"kind": "scatter", "title": _("Item map: difficulty and discrimination of each question"),
            "format": "float", "x_label": _("difficulty"), "y_label": _("discrimination"), "diagonal": False,
            "highlight_label": _("quality 0.5 or more"), "other_label": _("other questions"), "points": points}
