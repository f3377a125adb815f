"""The quality report's charts (chart JSON for the one chart module, ``core/charts.py``, which
turns them into Vega-Lite specs with a data table beside each).

Pure functions of the report dict (``selectors.quality.round_quality_report``), no queries.
"""


def accuracy_chart(report: dict) -> dict | None:
    """Human accuracy overall and per category, with 95% Wilson intervals."""
    accuracy = report["human_accuracy"]
    if not accuracy["n"]:
        return None
    rows = [("All questions", accuracy)] + [(row["category"].capitalize(), row) for row in accuracy["per_category"]]
    items = [{"label": label, "value": row["accuracy"], "low": row["ci"]["low"], "high": row["ci"]["high"],
              "detail": f"{row['n']} answers"} for label, row in rows]
    return {"kind": "bar", "title": "Human accuracy per category (95% Wilson interval)", "format": "percent", "max": 1.0,
            "x_label": "share of blind answers matching the key", "y_label": "Category", "value_label": "accuracy",
            "items": items}


def workload_chart(report: dict) -> dict | None:
    """Validations per validator (the 15 busiest); the tooltip adds the median seconds per question."""
    validators = report["validators"][:15]
    if not validators:
        return None
    items = [{"label": v["validator"], "value": v["validations"], "detail": f"median {v['median_seconds']:.0f} s per question"}
             for v in validators]
    return {"kind": "bar", "title": "Validations per validator", "format": "int", "x_label": "validations",
            "y_label": "Validator", "value_label": "validations", "items": items}


def coach_chart(report: dict) -> dict | None:
    """How often each warning was shown, and how often it was heeded before submitting."""
    rows = report["coach"]
    if not any(row["shown"] for row in rows):
        return None
    return {"kind": "grouped_bar", "title": "Coach warnings: shown and heeded before submitting", "format": "int",
            "x_label": "times", "y_label": "Warning", "value_label": "times",
            "groups": [row["label"].split(":")[0][:40] for row in rows],
            "series": [{"name": "shown", "values": [row["shown"] for row in rows]},
                       {"name": "heeded", "values": [row["heeded"] for row in rows]}]}
