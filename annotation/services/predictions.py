"""The QA model's answer to a stored question, and whether the question fooled it.

The question is stored first and the prediction computed afterwards by a Celery task, so a
model that is missing, slow or crashing never costs the worker a question. Idempotent: a
question already predicted by the project's current model version is left alone, and a
prediction for an edited question is thrown away.
"""
import logging

from django.db import transaction

from annotation.models import SpanQuestion
from core.jobs import task_enqueue
from mlcore.models.qa import QAExample
from mlcore.stats.squad_metrics import f1_score
from modelhub.inference import predict_qa

logger = logging.getLogger(__name__)


def prediction_schedule(*, question: SpanQuestion) -> None:
    """Queue the prediction once the question is committed (nothing to do without a model)."""
    if question.project.qa_model_id is None:
        return
    question_id = question.pk
    transaction.on_commit(lambda: task_enqueue("annotation.predict_question_answer", question_id))


def fool_verdict(*, gold: str, predicted: str, language: str, threshold: float) -> tuple[float, bool]:
    """(F1 of the prediction against the worker's answer, fooled = F1 below the threshold).

    ``gold`` is ``""`` for an unanswerable question: predicting no answer then scores 1.
    """
    f1 = f1_score(gold, predicted, normalizer="fa" if language == "fa" else "en")
    return f1, f1 < threshold


def _gold_text(question: SpanQuestion) -> str:
    first = question.answers.order_by("position", "id").first()
    return "" if question.is_impossible or first is None else first.text


def question_prediction_compute(*, question_id: int) -> SpanQuestion | None:
    """Ask the project's QA model about the question and store its span, F1 and verdict."""
    question = (SpanQuestion.objects.select_related("project__qa_model", "paragraph")
                .filter(pk=question_id).first())
    if question is None or question.project.qa_model is None:
        return question
    version = question.project.qa_model
    if question.qa_model_version_id == version.pk and question.qa_prediction_f1 is not None:
        return question
    asked, gold = question.question, _gold_text(question)
    try:
        prediction = predict_qa(version, [QAExample(asked, question.paragraph.context)])[0]
    except Exception:
        # The question is already safe in the database; without a prediction it simply has no verdict.
        logger.warning("QA model %s failed on question %s", version.name, question_id, exc_info=True)
        return question
    project = question.project
    f1, fooled = fool_verdict(gold=gold, predicted=prediction.text, language=project.language,
                              threshold=project.fool_f1_threshold)
    with transaction.atomic():
        current = SpanQuestion.objects.select_for_update().filter(pk=question_id).first()
        if current is None or current.question != asked or _gold_text(current) != gold:
            return current  # edited meanwhile: the edit scheduled a fresh prediction
        current.qa_model_version, current.qa_model_revision = version, prediction.model_revision
        current.qa_prediction_text, current.qa_prediction_start = prediction.text, prediction.start
        current.qa_prediction_f1, current.fooled_model = f1, fooled
        current.save(update_fields=["qa_model_version", "qa_model_revision", "qa_prediction_text",
                                    "qa_prediction_start", "qa_prediction_f1", "fooled_model", "updated_at"])
    return current
