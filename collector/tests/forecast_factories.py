"""Simulated scored courses for the survival forecast's tests (services, views, the browser test)."""
import numpy as np
from scipy import special

from collector.models import Prediction, Question
from collector.tests.factories import finished_scoring_run

CHOICES = ["went to sleep early.", "ate a large green apple.", "sang loudly in the rain.", "read the old book."]


def scored_course_round(round_, author, n: int, *, planted: bool, seed: int):
    """``n`` questions of ``round_`` with stored live predictions and a finished cross-validation."""
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.ones(4), n)
    answers = rng.integers(0, 4, n)
    right = probs[np.arange(n), answers]
    chance = special.expit(-10 * (right - 0.3)) if planted else np.full(n, 0.4)
    survived = rng.random(n) < chance
    questions = Question.objects.bulk_create(
        Question(round=round_, author=author, prompt=f"Question {i}: after the long day he", choices=CHOICES,
                 correct_index=int(answers[i])) for i in range(n))
    Prediction.objects.bulk_create(
        Prediction(question=q, kind=Prediction.Kind.LIVE, status=Prediction.Status.DONE, probs=[float(v) for v in p],
                   predicted_index=int(np.argmax(p)), fooled=int(np.argmax(p)) != q.correct_index)
        for q, p in zip(questions, probs))
    run = finished_scoring_run(round_, {q.pk: [not bool(s)] for q, s in zip(questions, survived)}, folds=5)
    return run, survived
