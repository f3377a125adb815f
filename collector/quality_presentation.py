"""What the quality pages show: review items and inline-SVG charts of the quality report.

Pure functions over already-fetched objects and the report dict (no queries), like
``presentation.py``. Charts are geometry for ``templates/collector/_bar_chart.svg.html``:
horizontal bars with an optional interval whisker, scaled to a fixed width.
"""
from dataclasses import dataclass

from collector import selectors
from collector.models import LETTERS, Question, Validation
from collector.validation_selectors import appeal_of

LABEL_WIDTH = 150
PLOT_WIDTH = 360
VALUE_WIDTH = 90
ROW_HEIGHT = 26


@dataclass(frozen=True)
class Bar:
    label: str
    y: float
    width: float
    value_text: str
    whisker: tuple[float, float] | None = None  # x positions of an interval
    secondary_width: float = 0.0  # a second, darker segment drawn first (e.g. heeded of shown)


@dataclass(frozen=True)
class BarChart:
    title: str
    description: str  # for screen readers (the SVG's <desc>)
    bars: tuple[Bar, ...]
    width: int = LABEL_WIDTH + PLOT_WIDTH + VALUE_WIDTH
    label_width: int = LABEL_WIDTH
    plot_width: int = PLOT_WIDTH
    row_height: int = ROW_HEIGHT
    legend: tuple[tuple[str, str], ...] = ()  # (css class, text)

    @property
    def height(self) -> int:
        return self.row_height * len(self.bars) + 8

    @property
    def bar_height(self) -> int:
        return self.row_height - 10


def _x(fraction: float | None) -> float:
    return round(PLOT_WIDTH * max(0.0, min(1.0, fraction or 0.0)), 1)


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def accuracy_chart(report: dict) -> BarChart | None:
    """Human accuracy overall and per category, with 95% Wilson intervals."""
    accuracy = report["human_accuracy"]
    if not accuracy["n"]:
        return None
    rows = [("All questions", accuracy)] + [(row["category"].capitalize(), row) for row in accuracy["per_category"]]
    bars = []
    for i, (label, row) in enumerate(rows):
        ci = row["ci"]
        whisker = (_x(ci["low"]), _x(ci["high"])) if ci["low"] is not None else None
        bars.append(Bar(label, i * ROW_HEIGHT, _x(row["accuracy"]), f"{_percent(row['accuracy'])} of {row['n']}", whisker))
    text = "; ".join(f"{label}: {_percent(row['accuracy'])} of {row['n']} answers" for label, row in rows)
    return BarChart("Human accuracy (95% interval)", text, tuple(bars))


def workload_chart(report: dict) -> BarChart | None:
    """Validations per validator; the value column adds the median seconds per question."""
    validators = report["validators"][:15]
    if not validators:
        return None
    most = max(v["validations"] for v in validators)
    bars = tuple(
        Bar(v["validator"], i * ROW_HEIGHT, _x(v["validations"] / most), f"{v['validations']} · {v['median_seconds']:.0f} s")
        for i, v in enumerate(validators)
    )
    text = "; ".join(f"{v['validator']}: {v['validations']} validations, median {v['median_seconds']:.0f} s" for v in validators)
    return BarChart("Validations per validator (median time per question)", text, bars)


def coach_chart(report: dict) -> BarChart | None:
    """How often each warning was shown, and the part heeded before submitting."""
    rows = report["coach"]
    most = max((row["shown"] for row in rows), default=0)
    if not most:
        return None
    bars = tuple(
        Bar(row["label"].split(":")[0][:24], i * ROW_HEIGHT, _x(row["shown"] / most),
            f"{row['heeded']}/{row['shown']} heeded", secondary_width=_x(row["heeded"] / most))
        for i, row in enumerate(rows)
    )
    text = "; ".join(f"{row['label']}: shown {row['shown']} times, heeded {row['heeded']}" for row in rows)
    return BarChart("Coach warnings shown (dark: heeded before submitting)", text, bars,
                    legend=(("bar-secondary", "heeded"), ("bar-primary", "shown")))


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
