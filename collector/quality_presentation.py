"""What the quality pages show: review items and the quality report's charts.

Pure functions over already-fetched objects and the report dict (no queries), like
``presentation.py``. Charts are chart JSON for the one chart module (``core/charts.py``
turns them into Vega-Lite specs with a data table beside each).
"""
from dataclasses import dataclass

from collector import selectors
from collector.models import LETTERS, Question, Validation
from collector.validation_selectors import appeal_of


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


@dataclass(frozen=True)
class ValidationView:
    validation: Validation
    picked: str  # "B" or "no pick"
    agrees: bool
    flags: list[str]


@dataclass(frozen=True)
class ReviewItem:
    """A question in the owner's queue with everything needed to decide."""

    question: Question
    choices: list[tuple[str, str, bool]]  # (letter, text, is the key)
    validations: list[ValidationView]
    duplicates: list  # DuplicateFlag rows, similar question prefetched
    appeal: object  # Appeal | None
    model_pick: str | None
    credit: float


def review_item(question: Question) -> ReviewItem:
    validations = [
        ValidationView(
            v, LETTERS[v.chosen_index] if v.chosen_index is not None else "no pick", v.is_correct,
            [Validation.Flag(flag).label for flag in v.flags],
        )
        for v in question.validations.all()
    ]
    prediction = selectors.live_prediction_of(question)
    picked = prediction.predicted_index if prediction is not None and prediction.predicted_index is not None else None
    return ReviewItem(
        question=question,
        choices=[(LETTERS[i], text, i == question.correct_index) for i, text in enumerate(question.choices)],
        validations=validations,
        duplicates=list(question.duplicate_flags.all()),
        appeal=appeal_of(question),
        model_pick=LETTERS[picked] if picked is not None else None,
        credit=selectors.question_credit(question=question, prediction=prediction),
    )
