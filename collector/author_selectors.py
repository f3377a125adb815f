"""What the authoring page shows an author about their own work in the round."""
from dataclasses import dataclass

from accounts.models import User
from collector.models import Round
from collector.selectors import live_prediction_of, question_credit, questions_of_author


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
