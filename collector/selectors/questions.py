"""Reads of questions with their live prediction and the credit each earns.

Views, consumers and commands read questions through these; ``with_live_prediction`` prefetches the
live prediction and annotates the latest cross-validation results (``selectors/scoring.py``).
"""
from dataclasses import dataclass

from django.db.models import Count, Prefetch, QuerySet

from accounts.models import User
from collector.models import Prediction, Question, Round, SubmissionVerdict
from collector.selectors.junk import live_credit_held
from collector.selectors.panel import question_panel_credit
from collector.selectors.scoring import answer_only_correct, fooled_cv_fraction


def with_live_prediction(questions: QuerySet[Question]) -> QuerySet[Question]:
    """Questions with their live prediction prefetched and ``fooled_cv`` / ``answer_only_correct``
    annotated (None until a scoring run of that kind has finished)."""
    live = Prediction.objects.filter(kind=Prediction.Kind.LIVE).select_related("model_version")
    return questions.prefetch_related(
        Prefetch("predictions", queryset=live, to_attr="live_predictions"),
        Prefetch("verdicts", queryset=SubmissionVerdict.objects.select_related("model_version")),
        "round__panel_members",
    ).annotate(
        fooled_cv=fooled_cv_fraction(), answer_only_correct=answer_only_correct()
    )


def live_prediction_of(question: Question) -> Prediction | None:
    """The live prediction, using the prefetch from the selectors above when present."""
    if hasattr(question, "live_predictions"):
        return question.live_predictions[0] if question.live_predictions else None
    return question.predictions.filter(kind=Prediction.Kind.LIVE).first()


def questions_of_author(*, user: User, round_: Round | None = None) -> QuerySet[Question]:
    # The appeal too: the dashboard shows a rejected question's appeal and its answer.
    questions = Question.objects.filter(author=user).select_related("round", "round__course", "appeal")
    if round_ is not None:
        questions = questions.filter(round=round_)
    return with_live_prediction(questions)


def round_questions(
    *,
    round_: Round,
    category: str | None = None,
    fooled: bool | None = None,
    author_id: int | None = None,
    search: str = "",
) -> QuerySet[Question]:
    questions = Question.objects.filter(round=round_).select_related("author", "round")
    if category:
        # A quoted substring match on the JSON text works on SQLite and PostgreSQL alike and is
        # exact, because category names contain no quotes.
        questions = questions.filter(categories__icontains=f'"{category}"')
    if fooled is not None:
        questions = questions.filter(predictions__kind=Prediction.Kind.LIVE, predictions__fooled=fooled)
    if author_id:
        questions = questions.filter(author_id=author_id)
    if search:
        questions = questions.filter(prompt__icontains=search)
    return with_live_prediction(questions)


def question_credit(*, question: Question, prediction: Prediction | None) -> float:
    """Credit = weight_live x fooled_live + weight_cv x fooled_cv (fooled_cv: share of trials),
    for questions that earn credit at all (``question_earns_credit``); the live part waits for
    acceptance when the completions look like junk (``question_live_credit``).

    ``fooled_cv`` comes from the annotation of the selectors above; a question not yet scored in
    cross-validation earns only its live credit.
    """
    if not question_earns_credit(question):
        return 0.0
    cv = getattr(question, "fooled_cv", None) or 0.0
    return question_live_credit(question=question, prediction=prediction) + question.round.weight_cv * cv


def question_live_credit(*, question: Question, prediction: Prediction | None) -> float:
    """weight_live x the share the round's credit rule gives the shown models' verdicts (one shown
    model: weight_live x fooled_live; ``selectors/panel.py``) for a question that earns credit, held
    back (0) while its completions look like junk and it is not accepted (``selectors/junk.py``)."""
    if not question_earns_credit(question):
        return 0.0
    share = question_panel_credit(question=question, prediction=prediction).share
    if share == 0 or live_credit_held(question):
        return 0.0
    return question.round.weight_live * float(share)


def question_earns_credit(question: Question) -> bool:
    """Rejected questions (appealed ones too, until the appeal succeeds) earn nothing; with the
    round's ``credit_requires_acceptance`` only accepted ones earn anything."""
    if question.status in (Question.Status.REJECTED, Question.Status.APPEALED):
        return False
    return question.status == Question.Status.ACCEPTED or not question.round.credit_requires_acceptance


def course_question_counts(*, course_id: int, user_ids: list[int]) -> dict[int, int]:
    """How many questions each of ``user_ids`` wrote in the course's rounds (absent: none), in one query."""
    rows = (Question.objects.filter(round__course_id=course_id, author_id__in=user_ids)
            .values("author_id").annotate(n=Count("pk")).values_list("author_id", "n"))
    return dict(rows)


def author_credit_total(*, user: User) -> float:
    """Sum of ``question_credit`` over all of ``user``'s questions."""
    return sum(
        question_credit(question=question, prediction=live_prediction_of(question))
        for question in questions_of_author(user=user)
    )


@dataclass(frozen=True)
class AuthorTally:
    questions: int
    fooled: int  # fooled the live model
    credit: float


def author_round_tally(*, user: User, round_: Round) -> AuthorTally:
    """The author's questions in ``round_`` so far, how many fooled the live model, and their credit
    (the dashboard's rule, ``question_credit``); two queries whatever the count."""
    questions = list(questions_of_author(user=user, round_=round_))
    predictions = [live_prediction_of(question) for question in questions]
    return AuthorTally(
        questions=len(questions),
        fooled=sum(1 for prediction in predictions if prediction is not None and prediction.fooled),
        credit=sum(question_credit(question=q, prediction=p) for q, p in zip(questions, predictions)),
    )
