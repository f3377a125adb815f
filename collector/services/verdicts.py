"""Writes of a submission's verdicts: one per model of its round's panel.

When a question's live prediction is done (``prediction_compute``), ``submission_verdicts_record``
opens one verdict per panel model (the panel as it is then: its roles are kept with the verdicts),
copies the live prediction into the live model's verdict, and leaves the others to the worker
(``collector.submission_verdicts_compute``), so a slow or remote model never delays the
submission or another model. A held-out model is scored there too and never shown to the author.
"""
import logging

from django.utils import timezone

from collector.models import Prediction, Question, SubmissionVerdict
from collector.selectors.panel import round_panel
from collector.signals import credit_changed
from core.jobs import task_enqueue
from mlcore.configs import MCExample
from modelhub.inference import predict_examples
from modelhub.services import model_version_default

logger = logging.getLogger(__name__)


def submission_verdicts_open(*, question: Question) -> list[SubmissionVerdict]:
    """One pending verdict per model of the question's round's panel (idempotent: existing ones stay)."""
    rows = [SubmissionVerdict(question=question, model_version=seat.model_version or model_version_default(),
                              role=seat.role, position=seat.position)
            for seat in round_panel(round_=question.round)]
    SubmissionVerdict.objects.bulk_create(rows, ignore_conflicts=True)
    return list(SubmissionVerdict.objects.filter(question=question).order_by("position"))


def submission_verdicts_record(*, question: Question, live: Prediction) -> list[SubmissionVerdict]:
    """Open the question's verdicts and copy the done live prediction into its model's verdict;
    ask a worker for the other models' verdicts still pending."""
    verdicts = submission_verdicts_open(question=question)
    SubmissionVerdict.objects.filter(question=question, model_version_id=live.model_version_id).update(
        status=SubmissionVerdict.Status.DONE, model_revision=live.model_revision, probs=live.probs,
        predicted_index=live.predicted_index, fooled=live.fooled, detail="", computed_at=live.computed_at,
    )
    if any(v.status == SubmissionVerdict.Status.PENDING and v.model_version_id != live.model_version_id
           for v in verdicts):
        # As prediction_schedule: a broker outage only delays it (the verdicts stay pending).
        task_enqueue("collector.submission_verdicts_compute", question.pk)
    return list(SubmissionVerdict.objects.filter(question=question).order_by("position"))


def submission_verdicts_compute(*, question_id: int) -> list[SubmissionVerdict]:
    """Score the question with every panel model whose verdict is pending; idempotent.

    A model that raises or returns a failed prediction (a remote call that timed out, say) gets a
    ``failed`` verdict with the reason; the other models are scored all the same.
    """
    question = Question.objects.select_related("round").get(pk=question_id)
    example = MCExample(prompt=question.prompt, choices=tuple(question.choices), label=question.correct_index)
    pending = SubmissionVerdict.objects.filter(question=question, status=SubmissionVerdict.Status.PENDING)
    for verdict in pending.select_related("model_version"):
        values: dict
        try:
            [result] = predict_examples(verdict.model_version, [example])
        except Exception as error:  # one model's failure never blocks the others
            logger.warning("Verdict of %s on question %s failed", verdict.model_version.name, question_id, exc_info=True)
            values = {"status": SubmissionVerdict.Status.FAILED, "detail": f"{type(error).__name__}: {error}"[:300]}
        else:
            values = _values_of(result, question.correct_index)
        SubmissionVerdict.objects.filter(pk=verdict.pk, status=SubmissionVerdict.Status.PENDING).update(
            computed_at=timezone.now(), **values)
    credit_changed.send(sender=SubmissionVerdict, round_id=question.round_id, user_ids=[question.author_id])
    return list(SubmissionVerdict.objects.filter(question=question).order_by("position"))


def _values_of(result, correct_index: int) -> dict:
    if not result.answered:
        return {"status": SubmissionVerdict.Status.FAILED, "model_revision": result.model_revision[:64],
                "detail": f"{result.status}: {result.detail}"[:300]}
    # An endpoint without probabilities says so; its one-hot is not stored as probabilities.
    probs = list(result.probs) if result.has_probabilities else None
    return {"status": SubmissionVerdict.Status.DONE, "model_revision": result.model_revision[:64], "probs": probs,
            "predicted_index": result.predicted, "fooled": result.predicted != correct_index, "detail": ""}


def submission_verdicts_rejudge(*, question: Question, text_changed: bool) -> None:
    """After an edit: new text makes every verdict pending again (scored with the live prediction);
    a new answer key re-judges the done ones."""
    verdicts = SubmissionVerdict.objects.filter(question=question)
    if text_changed:
        verdicts.update(status=SubmissionVerdict.Status.PENDING, probs=None, predicted_index=None, fooled=None,
                        detail="", computed_at=None)
        return
    for verdict in verdicts.filter(status=SubmissionVerdict.Status.DONE):
        SubmissionVerdict.objects.filter(pk=verdict.pk).update(fooled=verdict.predicted_index != question.correct_index)
