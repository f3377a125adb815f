"""A round's questions as data: labelled examples for fine-tuning, CODAH TSV and JSON lines.

``evaluation`` adds a report's weights to the exports (``evaluation/selectors/exports.py``); they
arrive here as a plain mapping.
"""
import re
from collections.abc import Mapping

from django.db.models import Q, QuerySet

from collector.models import Prediction, Question, Round, SubmissionVerdict
from collector.selectors.item_quality import item_quality_fields, round_item_quality
from collector.selectors.panel import question_verdicts
from collector.selectors.questions import live_prediction_of, with_live_prediction
from mlcore.configs import CATEGORIES, MCExample
from mlcore.data.codah import format_codah_tsv


def _single_line(text: str) -> str:
    # CODAH TSV has no quoting: a tab or line break typed into a form would split the row.
    return re.sub(r"[\t\r\n]", " ", text)


def round_examples(*, round_: Round) -> list[MCExample]:
    """The round's questions as labelled examples, oldest first (TSV export and fine-tuning)."""
    return _as_examples(Question.objects.filter(round=round_))


def course_examples_so_far(*, round_: Round) -> list[MCExample]:
    """Every question of ``round_`` and of the course's earlier rounds (by creation), oldest
    first: the training set of the next round's live model."""
    rounds = Round.objects.filter(course_id=round_.course_id, created_at__lte=round_.created_at)
    return _as_examples(Question.objects.filter(Q(round__in=rounds) | Q(round=round_)))


def _as_examples(questions: QuerySet[Question]) -> list[MCExample]:
    return [_as_example(q) for q in questions.order_by("created_at", "id")]


def _as_example(q: Question) -> MCExample:
    return MCExample(
        prompt=_single_line(q.prompt),
        choices=tuple(_single_line(c) for c in q.choices),
        label=q.correct_index,
        categories=tuple(c for c in q.categories if c in CATEGORIES),
    )


def round_export_codah_tsv(*, round_: Round, weights: Mapping[tuple[int, int], float] | None = None) -> str:
    """The round's questions in CODAH's 7-column TSV format, readable by ``import_codah``.

    ``weights`` (``(question_id, choice_index) -> weight``, from
    ``evaluation.selectors.exports.evaluation_run_weights``) adds one column per answer, empty
    where the report weighed no such completion (e.g. a question written after it); such an
    11-column file is for weighted training, ``import_codah`` reads 7.
    """
    questions = list(Question.objects.filter(round=round_).order_by("created_at", "id"))
    rows = None if weights is None else [_choice_weights(q, weights) for q in questions]
    return format_codah_tsv([_as_example(q) for q in questions], weights=rows)


def _choice_weights(q: Question, weights: Mapping[tuple[int, int], float]) -> list[float | None]:
    return [weights.get((q.pk, index)) for index in range(len(q.choices))]


def _verdict_record(verdict: SubmissionVerdict) -> dict:
    done = verdict.status == SubmissionVerdict.Status.DONE
    return {
        "model_version": verdict.model_version.name, "model_revision": verdict.model_revision, "role": verdict.role,
        "status": verdict.status, "predicted": verdict.predicted_index if done else None,
        "probs": verdict.probs if done else None, "fooled": verdict.fooled if done else None,
    }


def round_export_records(*, round_: Round, weights: Mapping[tuple[int, int], float] | None = None) -> list[dict]:
    """One JSON-ready record per question with its live prediction, oldest first (JSONL export);
    with ``weights`` (as for the TSV) each record also has ``"weights"``, one per choice or null."""
    questions = with_live_prediction(
        Question.objects.filter(round=round_).select_related("author").order_by("created_at", "id")
    )
    quality = round_item_quality(round_=round_)
    records = []
    for q in questions:
        prediction = live_prediction_of(q)
        done = prediction is not None and prediction.status == Prediction.Status.DONE
        records.append(
            {
                "id": q.pk,
                "author": q.author.username,
                "prompt": q.prompt,
                "choices": list(q.choices),
                "answer": q.correct_index,
                "categories": list(q.categories),
                "created_at": q.created_at.isoformat(),
                "live_prediction": None if prediction is None else {
                    "status": prediction.status,
                    "probs": prediction.probs if done else None,
                    "predicted": prediction.predicted_index if done else None,
                    "fooled": prediction.fooled if done else None,
                    "model_version": prediction.model_version.name if prediction.model_version else None,
                },
                # One entry per model of the round's panel at submission, in panel order (held out ones too).
                "panel_predictions": [_verdict_record(verdict) for verdict in question_verdicts(q)],
                **item_quality_fields(quality.get(q.pk)),
            }
        )
        if weights is not None:
            records[-1]["weights"] = _choice_weights(q, weights)
    return records
