"""Leaderboard services: evaluate a registered model version on a round's accepted questions or
a project's test split, as a background job with progress.

The job is a ``core.models.BackgroundJob`` run by the one job mechanism (``core.jobs``): the
start freezes the data (question ids and a snapshot id) and enqueues ``model_evaluation_run`` on
commit; the run claims the row (``host:pid`` owner and heartbeat), reports progress
that is pushed to the page's websocket, and writes the result once, whole, at the end. It is
idempotent: a finished or failed evaluation is left alone and one another live worker holds is
skipped. A worker restart re-runs an interrupted evaluation from the start (the interrupted
attempt stored nothing) and says so; after ``MAX_ATTEMPTS`` interruptions it fails with that
message. A model that does not load fails the job with a message naming the model and path.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_noop

from accounts.models import User
from annotation.models import Project
from collector.models import Round
from core.jobs import ProgressWriter, job_claim, job_done, job_fail, job_owner, jobs_resume, task_enqueue
from evaluation.models.leaderboards import ModelEvaluation
from evaluation.reports.leaderboards import mc_result, span_result
from evaluation.reports.sections import Progress
from evaluation.selectors import leaderboards as leaderboard_selectors
from mlcore.configs import MCExample
from mlcore.models.loading import set_torch_threads
from mlcore.models.qa import QAExample, load_qa_model
from modelhub.inference import live_model_for, qa_spec_for
from modelhub.models import ModelVersion

logger = logging.getLogger(__name__)

TASK_NAME = "evaluation.model_evaluation_run"
STALE_AFTER = timedelta(minutes=10)
MAX_ATTEMPTS = 3
BATCH_SIZE = 16
PROGRESS_WRITE_SECONDS = 0.5


class ModelLoadFailed(Exception):
    """The model version's weights could not be loaded; the message says which and from where."""


def model_evaluation_start(*, model_version: ModelVersion, round_: Round | None = None,
                           project: Project | None = None, user: User | None = None) -> ModelEvaluation:
    """Queue an evaluation of ``model_version`` on the target's questions as they are now.

    Idempotent: the same model (and revision) on the same snapshot returns the finished entry,
    and a second start while one is queued or running returns that one. A model of the wrong kind
    or a target without questions is a ValidationError that says what is missing.
    """
    if (round_ is None) == (project is None):
        raise ValueError("Give exactly one of round_ and project.")
    if round_ is not None:
        if model_version.kind not in leaderboard_selectors.MC_KINDS:
            raise ValidationError({"model_version": f"{model_version.name} answers span questions; a round's "
                                                    "leaderboard needs a multiple-choice model."})
        rows = leaderboard_selectors.round_accepted_questions(round_=round_)
        if not rows:
            raise ValidationError(f"Round {round_.name} has no accepted questions yet: validate its questions "
                                  "first (only accepted questions go on the leaderboard).")
        target = {"target": ModelEvaluation.Target.ROUND, "round": round_}
    else:
        if model_version.kind != ModelVersion.Kind.QUESTION_ANSWERING:
            raise ValidationError({"model_version": f"{model_version.name} is not an extractive question-answering "
                                                    "model; a project's leaderboard needs one."})
        rows = leaderboard_selectors.project_test_questions(project=project)
        if not rows:
            raise ValidationError(f"Project {project.name} has no submitted questions on test-split articles yet.")
        target = {"target": ModelEvaluation.Target.PROJECT, "project": project}
    snapshot = leaderboard_selectors.snapshot_id(rows)
    lookup = {k: v for k, v in target.items() if k != "target"}
    existing = ModelEvaluation.objects.filter(
        **lookup, model_version=model_version, model_revision=model_version.revision, snapshot_id=snapshot,
        status=ModelEvaluation.Status.DONE).order_by("-pk").first()
    if existing is not None:
        return existing
    evaluation = ModelEvaluation(
        **target, model_version=model_version, model_revision=model_version.revision,
        question_ids=[pk for pk, _ in rows], snapshot_id=snapshot, created_by=user,
        progress={"stage": "Waiting for a worker", "percent": 0.0, "attempt": 0},
    )
    evaluation.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            evaluation.save()
    except IntegrityError:
        active = ModelEvaluation.objects.filter(**lookup, model_version=model_version,
                                                status__in=ModelEvaluation.ACTIVE).first()
        if active is None:
            raise
        return active
    transaction.on_commit(lambda: model_evaluation_schedule(evaluation_id=evaluation.pk))
    return evaluation


def model_evaluation_schedule(*, evaluation_id: int) -> None:
    task_enqueue(TASK_NAME, evaluation_id)


def _next_attempt(stored: dict) -> dict:
    """The progress of a fresh claim: one more attempt, and a note when an attempt was interrupted."""
    interrupted = bool(job_owner(stored))  # a worker had claimed it and never finished it
    note = ("Restarted after a worker restart: the interrupted attempt stored nothing, so the evaluation "
            "runs again from the start." if interrupted else "")
    return {"stage": gettext_noop("Loading the model"), "percent": 0.0, "attempt": int(stored.get("attempt", 0)) + 1,
            **({"note": note} if note else {})}


def _claim(evaluation_id: int) -> ModelEvaluation | None:
    """Mark the evaluation as ours unless it is finished, or another live worker is on it."""
    evaluation = job_claim(ModelEvaluation, evaluation_id, progress=_next_attempt, resumable=True,
                           stale_after=STALE_AFTER)
    if evaluation is not None and evaluation.progress["attempt"] > MAX_ATTEMPTS:
        job_fail(evaluation, f"The evaluation was interrupted by a worker restart {MAX_ATTEMPTS} times; nothing "
                             "was stored. Start it again (a smaller model or fewer questions may help).",
                 progress={"stage": "Failed", "percent": 0.0, "attempt": MAX_ATTEMPTS})
        return None
    return evaluation


class _ProgressWriter(ProgressWriter):
    """Writes ``{stage, percent}`` and the heartbeat at most twice a second (each write is pushed to the socket)."""

    every = PROGRESS_WRITE_SECONDS

    def __call__(self, stage: str, fraction: float) -> None:
        self.save(final=fraction >= 1.0, stage=stage, percent=round(100 * min(max(fraction, 0.0), 1.0), 1))


def model_evaluation_run(*, evaluation_id: int) -> ModelEvaluation:
    """Compute and store the evaluation's result; idempotent (see the module docstring)."""
    evaluation = _claim(evaluation_id)
    if evaluation is None:
        return leaderboard_selectors.model_evaluation_get(evaluation_id=evaluation_id)
    try:
        result = _compute(evaluation, _ProgressWriter(evaluation))
    except ModelLoadFailed as error:
        job_fail(evaluation, str(error), progress=_final(evaluation, "Failed"), result={})
    except Exception as error:
        logger.exception("Model evaluation %s failed", evaluation_id)
        job_fail(evaluation, error, progress=_final(evaluation, "Failed"), result={})
    else:
        job_done(evaluation, result=result, progress={**_final(evaluation, "Done"), "percent": 100.0})
    return leaderboard_selectors.model_evaluation_get(evaluation_id=evaluation_id)


def _final(evaluation: ModelEvaluation, stage: str) -> dict:
    """The last progress: the stage, and the attempt and note the page keeps showing (no owner)."""
    kept = {k: v for k, v in evaluation.progress.items() if k in ("percent", "attempt", "note")}
    return {**kept, "stage": stage}


def _answers(version: ModelVersion, questions: Sequence, *, gone: str, load: Callable[[], Any],
             example: Callable[[Any], object], progress: Progress) -> list:
    """The model's prediction for each question still in the snapshot (none left: ``gone``), in
    batches: loading is the first 5% of the progress (a load that fails says which model and from
    where), answering the rest."""
    if not questions:
        raise ValueError(f"None of the snapshot's questions {gone}; start a new evaluation.")
    set_torch_threads(settings.STUMPER_TORCH_THREADS)
    try:
        model = load()
    except Exception as error:
        raise ModelLoadFailed(f"Model version {version.name} could not be loaded from {version.path!r}: {error} "
                              "Check its path in the model registry; nothing was stored.") from error
    stage, examples, out = gettext_noop("Answering the questions"), [example(q) for q in questions], []
    progress(stage, 0.05)
    for start in range(0, len(examples), BATCH_SIZE):
        out.extend(model.predict(examples[start:start + BATCH_SIZE]))
        progress(stage, 0.05 + 0.9 * min(start + BATCH_SIZE, len(examples)) / len(examples))
    return out


def _compute(evaluation: ModelEvaluation, progress: Progress) -> dict:
    version = evaluation.model_version
    if evaluation.target == ModelEvaluation.Target.ROUND:
        mc = leaderboard_selectors.mc_questions(question_ids=evaluation.question_ids)
        picks = _answers(version, mc, gone="exist any more", load=lambda: live_model_for(version),
                         example=lambda q: MCExample(prompt=q.prompt, choices=q.choices), progress=progress)
        return mc_result(question_ids=[q.id for q in mc], correct_index=[q.correct_index for q in mc],
                         predicted=[p.predicted for p in picks], categories=[q.categories for q in mc],
                         category_order=list(evaluation.round.categories or []))
    spans = leaderboard_selectors.span_questions(question_ids=evaluation.question_ids)
    answers = _answers(version, spans, gone="are still submitted", load=lambda: load_qa_model(qa_spec_for(version)),
                       example=lambda q: QAExample(question=q.question, context=q.context), progress=progress)
    return span_result(question_ids=[q.id for q in spans], qids=[q.qid for q in spans], golds=[q.answers for q in spans],
                       impossible=[q.is_impossible for q in spans], predictions=[p.text for p in answers],
                       normalizer=evaluation.project.language)


def model_evaluations_resume_interrupted() -> int:
    """Re-enqueue evaluations that are queued or whose worker stopped (called when a worker starts)."""
    return jobs_resume(ModelEvaluation, enqueue=lambda pk: model_evaluation_schedule(evaluation_id=pk),
                       resumable=True, stale_after=STALE_AFTER)
