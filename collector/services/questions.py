"""Writes of a question: submitting it, and computing its live (and answer-only) predictions.

``question_submit`` stores the question, then scores it with the round's live model within the
submission's time budget; whatever is not done by then a worker computes
(``collector.prediction_compute``, ``prediction_compute``).
"""
import logging
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from collector.cleaning import clean_question
from collector.models import Prediction, Question, Round
from collector.selectors.rounds import round_for_author
from collector.services.coach import settle_answer_only
from collector.services.validation import question_quality_after_submit
from collector.services.verdicts import submission_verdicts_record
from collector.signals import credit_changed
from core.jobs import task_enqueue
from mlcore.configs import MCExample
from modelhub.inference import predict_examples
from modelhub.models import ModelVersion
from modelhub.services import model_version_default

logger = logging.getLogger(__name__)

MAX_TIME_SPENT_SECONDS = 24 * 3600
# Runs the model for submissions scored in the request, so that the request can stop waiting after
# STUMPER_SUBMIT_SCORING_BUDGET; one forward pass uses every torch thread, so two are plenty.
_submission_scoring = ThreadPoolExecutor(max_workers=2, thread_name_prefix="submit-scoring")


class ScoringBudgetExceeded(Exception):
    """The model did not answer within the submission's time budget (the worker will)."""


class ModelAnswerFailed(Exception):
    """The model returned a failed prediction (``MCPrediction.answered`` false: a remote call failed)."""


def _live_model_of(round_: Round) -> ModelVersion:
    return round_.live_model or model_version_default()


def question_submit(
    *,
    user: User,
    round_id: int,
    prompt: str,
    choices: Sequence[str],
    correct_index: int,
    categories: Sequence[str] | None = None,
    time_spent_seconds: int = 0,
    client_token: uuid.UUID | None = None,
    compute_prediction: bool | None = None,
) -> Question:
    """Store a question, then score it with the round's live model on the server.

    The question is committed before the model runs, so a model failure never loses it: the
    prediction stays pending and a worker computes it later. Submitting the same
    ``client_token`` twice returns the first question. ``compute_prediction`` defaults to
    ``STUMPER_INFERENCE_MODE == "local"``: with ``"worker"`` the web process loads no model and
    the inference workers compute every prediction (pending until then).
    """
    if compute_prediction is None:
        compute_prediction = settings.STUMPER_INFERENCE_MODE == "local"
    round_ = round_for_author(user=user, round_id=round_id)
    clean = clean_question(
        prompt=prompt, choices=choices, answer=correct_index, categories=categories,
        allowed_categories=round_.categories,
    )
    if client_token is not None:
        existing = Question.objects.filter(author=user, client_token=client_token).first()
        if existing is not None:
            return existing
    try:
        with transaction.atomic():
            question = Question(
                round=round_, author=user, prompt=clean.prompt, choices=list(clean.choices),
                correct_index=clean.answer, categories=list(clean.categories or ("other",)),
                time_spent_seconds=max(0, min(int(time_spent_seconds or 0), MAX_TIME_SPENT_SECONDS)),
                client_token=client_token,
            )
            question.full_clean(validate_constraints=False)
            question.save()
            predictions = [Prediction.objects.create(question=question, model_version=_live_model_of(round_))]
            if round_.answer_only_model_id:
                # The coach's answer-only check, stored: was the answer findable without the prompt?
                predictions.append(Prediction.objects.create(
                    question=question, kind=Prediction.Kind.ANSWER_ONLY, model_version=round_.answer_only_model
                ))
    except IntegrityError:
        # The same client token arrived twice at once: the other request stored it.
        return Question.objects.get(author=user, client_token=client_token)
    # The author waits for this request, so the model gets STUMPER_SUBMIT_SCORING_BUDGET seconds for all
    # of the question's predictions; whatever is not done by then stays pending for the worker.
    deadline = time.monotonic() + settings.STUMPER_SUBMIT_SCORING_BUDGET
    for prediction in predictions:
        if compute_prediction:
            prediction = prediction_compute(prediction_id=prediction.pk, budget=max(0.0, deadline - time.monotonic()))
        if prediction.status == Prediction.Status.PENDING:
            prediction_schedule(prediction_id=prediction.pk)
    question_quality_after_submit(question=question)
    return question


def prediction_schedule(*, prediction_id: int) -> None:
    """Ask a worker to compute a pending prediction; a broker outage only delays it (it stays pending)."""
    task_enqueue("collector.prediction_compute", prediction_id)


def _predict_within(version: ModelVersion, example: MCExample, budget: float | None):
    if budget is None:
        return predict_examples(version, [example])[0]
    future = _submission_scoring.submit(predict_examples, version, [example])
    try:
        return future.result(timeout=budget)[0]
    except FutureTimeout:
        # Not cancelled once running (a thread cannot be stopped); its answer is simply not used.
        future.cancel()
        raise ScoringBudgetExceeded(f"no answer within the submission's {budget:.1f} s budget") from None


def prediction_compute(*, prediction_id: int, budget: float | None = None) -> Prediction:
    """Compute a pending prediction; idempotent, and a model failure leaves it pending.

    With ``budget`` (seconds; the submit request's STUMPER_SUBMIT_SCORING_BUDGET) a model that has
    not answered by then leaves it pending too, without counting an attempt: it is only slow, and
    the worker finishes it.
    """
    prediction = Prediction.objects.select_related("question", "model_version").get(pk=prediction_id)
    if prediction.status == Prediction.Status.DONE:
        return prediction
    question = prediction.question
    version = prediction.model_version or model_version_default()
    example = MCExample(prompt=question.prompt, choices=tuple(question.choices), label=question.correct_index)
    try:
        result = _predict_within(version, example, budget)
        if not result.answered:  # a remote model's failed call: tried again, like a raised error
            raise ModelAnswerFailed(f"{result.status}: {result.detail}")
    except ScoringBudgetExceeded as slow:
        logger.info("Prediction %s left to the worker: model %s gave %s", prediction_id, version.name, slow)
        return prediction
    except Exception as error:
        logger.exception("Prediction %s failed with model %s", prediction_id, version.name)
        Prediction.objects.filter(pk=prediction_id).update(
            attempts=F("attempts") + 1, last_error=f"{type(error).__name__}: {error}"[:2000]
        )
        prediction.refresh_from_db()
        return prediction
    Prediction.objects.filter(pk=prediction_id, status=Prediction.Status.PENDING).update(
        status=Prediction.Status.DONE,
        model_version=version,
        model_revision=result.model_revision[:64],
        probs=list(result.probs),
        predicted_index=result.predicted,
        fooled=result.predicted != question.correct_index,
        attempts=F("attempts") + 1,
        last_error="",
        computed_at=timezone.now(),
    )
    prediction.refresh_from_db()
    if prediction.kind == Prediction.Kind.ANSWER_ONLY:
        settle_answer_only(question=question)
    else:
        if prediction.status == Prediction.Status.DONE:
            submission_verdicts_record(question=question, live=prediction)
        credit_changed.send(sender=Prediction, round_id=question.round_id, user_ids=[question.author_id])
    return prediction


def predictions_schedule_pending() -> int:
    """Enqueue every pending live prediction (run when a worker starts); returns how many."""
    ids = list(Prediction.objects.filter(status=Prediction.Status.PENDING).values_list("pk", flat=True))
    for prediction_id in ids:
        prediction_schedule(prediction_id=prediction_id)
    return len(ids)
