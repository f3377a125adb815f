"""Turn questions and their live predictions into what pages and the API show.

Pure functions over already-fetched objects (no queries beyond the selectors' prefetches), so
the dashboard, the instructor table and the API describe a prediction the same way.
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _

from collector.models import LETTERS, Prediction, Question
from collector.selectors.junk import live_credit_note
from collector.selectors.questions import live_prediction_of, question_credit, question_live_credit


@dataclass(frozen=True)
class ChoiceView:
    letter: str
    text: str
    is_correct: bool
    is_predicted: bool
    percent: float | None  # the model's probability in percent; None while pending


@dataclass(frozen=True)
class QuestionView:
    question: Question
    prediction: Prediction | None
    state: str  # "fooled" | "not_fooled" | "pending"
    choices: list[ChoiceView]
    predicted_text: str | None
    predicted_letter: str | None
    credit: float
    model_name: str | None
    fooled_cv: float | None  # share of CV trials fooled; None until scored in cross-validation
    cv_text: str  # "yes" | "no" | "67% of trials" | "not scored yet"
    live_credit: float
    cv_credit: float
    live_credit_note: str = ""  # why a fooled question has no live credit yet (junk awaiting validation)


@dataclass(frozen=True)
class CategoryBar:
    name: str
    count: int
    percent: float  # of the largest category, for the bar's length


def _is_done(prediction: Prediction | None) -> bool:
    return (
        prediction is not None
        and prediction.status == Prediction.Status.DONE
        and prediction.predicted_index is not None
        and prediction.probs is not None
    )


def prediction_state(prediction: Prediction | None) -> str:
    if not _is_done(prediction) or prediction.fooled is None:
        return "pending"
    return "fooled" if prediction.fooled else "not_fooled"


def question_view(question: Question) -> QuestionView:
    prediction = live_prediction_of(question)
    done = _is_done(prediction)
    predicted = prediction.predicted_index if done else None
    choices = [
        ChoiceView(
            letter=LETTERS[i],
            text=text,
            is_correct=i == question.correct_index,
            is_predicted=i == predicted,
            percent=round(100 * float(prediction.probs[i]), 1) if done else None,
        )
        for i, text in enumerate(question.choices)
    ]
    version = prediction.model_version if prediction is not None else None
    fooled_cv = getattr(question, "fooled_cv", None)
    credit = question_credit(question=question, prediction=prediction)
    live_credit = question_live_credit(question=question, prediction=prediction)
    return QuestionView(
        question=question,
        prediction=prediction,
        state=prediction_state(prediction),
        choices=choices,
        predicted_text=question.choices[predicted] if predicted is not None else None,
        predicted_letter=LETTERS[predicted] if predicted is not None else None,
        credit=credit,
        model_name=version.name if version is not None else None,
        fooled_cv=fooled_cv,
        cv_text=cv_text(fooled_cv),
        live_credit=live_credit,
        cv_credit=credit - live_credit,
        live_credit_note=live_credit_note(question) if prediction is not None and prediction.fooled else "",
    )


def cv_text(fooled_cv: float | None) -> str:
    """How a question did in cross-validation, in words."""
    if fooled_cv is None:
        return _("not scored yet")
    if fooled_cv >= 1.0:
        return _("yes")
    if fooled_cv <= 0.0:
        return _("no")
    return _("%(percent)s%% of trials") % {"percent": f"{100 * fooled_cv:.0f}"}


def prediction_payload(question: Question) -> dict:
    """The JSON description of a question's live prediction (API responses)."""
    prediction = live_prediction_of(question)
    done = _is_done(prediction)
    version = prediction.model_version if prediction is not None else None
    return {
        "status": prediction.status if prediction is not None else Prediction.Status.PENDING,
        "probs": [float(p) for p in prediction.probs] if done else None,
        "predicted": prediction.predicted_index if done else None,
        "predicted_text": question.choices[prediction.predicted_index] if done else None,
        "fooled": prediction.fooled if done else None,
        "model_version": version.name if version is not None else None,
    }


def submit_message(question: Question) -> str:
    """The message shown after a submission: did the question stump the model?"""
    view = question_view(question)
    if view.state == "fooled":
        text = _("Stumped! The model picked “%(picked)s”, but the right answer is “%(right)s”.") % {
            "picked": view.predicted_text, "right": question.choices[question.correct_index]}
        return f"{text} {view.live_credit_note}" if view.live_credit_note else text
    if view.state == "not_fooled":
        return _("Not fooled: the model picked “%(picked)s”, the right answer. Your question is saved.") % {
            "picked": view.predicted_text}
    return _("Saved; the model's answer is pending — it will be computed shortly.")


def category_bars(per_category: dict[str, int]) -> list[CategoryBar]:
    largest = max(per_category.values(), default=0)
    return [
        CategoryBar(name=name, count=count, percent=(100.0 * count / largest) if largest else 0.0)
        for name, count in per_category.items()
    ]
