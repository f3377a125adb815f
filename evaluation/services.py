"""Evaluation runs (services): start a report, compute it in a worker, store it whole.

``evaluation_start_round`` snapshots what the report will read (question ids, the finished
scoring runs, the live model) and queues ``evaluation_run``. That service is idempotent: a
finished or failed run is left alone, a run another live worker holds is skipped, and the
result is written once at the end, so a crash never leaves half a report.
"""
from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from annotation.models import Project
from collector.models import Round, ScoringRun
from collector.ownership import held_by_another_worker, worker_owner
from evaluation import selectors
from evaluation.models import EvaluationRun
from evaluation.project_report import project_report, project_report_inputs
from evaluation.round_report import round_report, round_report_inputs
from evaluation.sections import check_section

logger = logging.getLogger(__name__)

DEFAULT_CONFIG = {"k": 50, "p0": "uniform", "min_count": None, "max_steps": 3000, "seed": 0}
LIMITS = {"k": (1, 500), "min_count": (1, 1_000_000), "max_steps": (0, 20_000), "seed": (0, 2**31 - 1)}
P0_CHOICES = ("uniform", "prior")
# A run whose worker has not written progress for this long is taken over by the next worker.
STALE_AFTER = timedelta(minutes=10)
PROGRESS_WRITE_SECONDS = 0.5


class EvaluationRefused(Exception):
    """A report cannot start now; the message says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def evaluation_config_clean(config: dict | None) -> dict:
    """The analysis settings with defaults filled in; a ValidationError names each bad field."""
    config = dict(config or {})
    unknown = sorted(set(config) - set(DEFAULT_CONFIG))
    if unknown:
        raise ValidationError({"config": f"Unknown setting(s): {', '.join(unknown)}."})
    clean, errors = {**DEFAULT_CONFIG}, {}
    for key, value in config.items():
        if value is None or value == "":
            continue  # keep the default
        if key == "p0":
            if value not in P0_CHOICES:
                errors[key] = f"Choose {' or '.join(P0_CHOICES)}."
            else:
                clean[key] = value
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            errors[key] = "Enter a whole number."
            continue
        low, high = LIMITS[key]
        if not low <= value <= high:
            errors[key] = f"Enter a number from {low} to {high}."
            continue
        clean[key] = value
    if errors:
        raise ValidationError(errors)
    return clean


def evaluation_start_round(*, round_: Round, user: User | None = None, config: dict | None = None) -> EvaluationRun:
    """Queue a report of the round as it is now; refused while another report of it is running."""
    config = evaluation_config_clean(config)
    cv = selectors.latest_finished_scoring_run(round_=round_, kind=ScoringRun.Kind.CROSS_VALIDATION)
    answer_only = selectors.latest_finished_scoring_run(round_=round_, kind=ScoringRun.Kind.ANSWER_ONLY)
    run = EvaluationRun(
        target=EvaluationRun.Target.ROUND, round=round_,
        snapshot={
            "question_ids": selectors.round_question_ids(round_=round_),
            "cv_run_id": cv.pk if cv else None,
            "answer_only_run_id": answer_only.pk if answer_only else None,
        },
    )
    return _start(run, config=config, user=user, version=round_.live_model, what=f"round {round_.name}",
                  active=lambda: selectors.active_evaluation_run(round_=round_))


def evaluation_start_project(*, project: Project, user: User | None = None, config: dict | None = None,
                             ambiguity: dict | None = None) -> EvaluationRun:
    """Queue a report of the annotation project as it is now (its QA model answers the probes).

    ``ambiguity`` is the probes' inputs chosen for this report (``evaluation/ambiguity_inputs.py``).
    """
    config = evaluation_config_clean(config)
    run = EvaluationRun(target=EvaluationRun.Target.PROJECT, project=project,
                        snapshot={"question_ids": selectors.project_question_ids(project=project),
                                  **({"ambiguity": ambiguity} if ambiguity else {})})
    return _start(run, config=config, user=user, version=project.qa_model, what=f"project {project.name}",
                  active=lambda: selectors.active_evaluation_run(project=project))


def _start(run: EvaluationRun, *, config: dict, user: User | None, version, what: str, active) -> EvaluationRun:
    run.config, run.created_by = config, user
    run.model_version, run.model_revision = version, version.revision if version else ""
    run.snapshot["taken_at"] = timezone.now().isoformat()
    run.progress = {"stage": "Waiting for a worker", "percent": 0.0}
    run.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            run.save()
    except IntegrityError:
        running = active()
        since = f" (run {running.pk}, started {running.created_at:%Y-%m-%d %H:%M} UTC)" if running else ""
        raise EvaluationRefused(f"A report of {what} is already being computed{since}; wait until it finishes.") from None
    transaction.on_commit(lambda: evaluation_schedule(run_id=run.pk))
    return run


def evaluation_schedule(*, run_id: int) -> None:
    from evaluation.tasks import evaluation_run_task

    try:
        evaluation_run_task.delay(run_id)
    except Exception:
        logger.exception("Could not enqueue evaluation run %s; a worker will resume it when it starts", run_id)


def _claim(run_id: int) -> EvaluationRun | None:
    """Mark the run as ours unless it is finished or another live worker is on it."""
    with transaction.atomic():
        # No select_related here: PostgreSQL refuses FOR UPDATE on the nullable side of an outer join.
        run = EvaluationRun.objects.select_for_update().get(pk=run_id)
        if run.status in (EvaluationRun.Status.DONE, EvaluationRun.Status.FAILED):
            return None
        owner = run.progress.get("owner", "")
        if held_by_another_worker(running=run.status == EvaluationRun.Status.RUNNING, owner=owner,
                                  heartbeat_at=run.heartbeat_at, stale_after=STALE_AFTER):
            return None
        run.status = EvaluationRun.Status.RUNNING
        run.started_at = timezone.now()
        run.heartbeat_at = timezone.now()
        run.progress = {"owner": worker_owner(), "stage": "Reading the data", "percent": 0.0}
        run.error = ""
        run.save()
    return run


class _ProgressWriter:
    """Writes ``{stage, percent}`` and the heartbeat at most twice a second (the page polls it)."""

    def __init__(self, run: EvaluationRun):
        self.run, self.last = run, 0.0

    def __call__(self, stage: str, fraction: float) -> None:
        now = time.monotonic()
        if now - self.last < PROGRESS_WRITE_SECONDS:
            return
        self.last = now
        self.run.progress = {**self.run.progress, "stage": stage, "percent": round(100 * min(max(fraction, 0.0), 1.0), 1)}
        EvaluationRun.objects.filter(pk=self.run.pk).update(progress=self.run.progress, heartbeat_at=timezone.now())


def evaluation_run(*, run_id: int) -> EvaluationRun:
    """Compute and store the run's report; idempotent (see the module docstring)."""
    run = _claim(run_id)
    if run is None:
        return selectors.evaluation_run_get(run_id=run_id)
    try:
        sections, digest = _compute(run, _ProgressWriter(run))
        sections = {name: check_section(name, value) for name, value in sections.items()}
    except Exception as error:
        logger.exception("Evaluation run %s failed", run_id)
        EvaluationRun.objects.filter(pk=run_id).update(
            status=EvaluationRun.Status.FAILED, error=f"{type(error).__name__}: {error}"[:4000],
            finished_at=timezone.now(), progress={"stage": "Failed", "percent": run.progress.get("percent", 0.0)},
        )
    else:
        EvaluationRun.objects.filter(pk=run_id).update(
            status=EvaluationRun.Status.DONE, result=sections, snapshot_digest=digest, finished_at=timezone.now(),
            progress={"stage": "Done", "percent": 100.0},
        )
    return selectors.evaluation_run_get(run_id=run_id)


def _compute(run: EvaluationRun, progress: _ProgressWriter) -> tuple[dict[str, dict], str]:
    if run.target == EvaluationRun.Target.ROUND:
        inputs = round_report_inputs(run=run)
        return round_report(inputs, config=run.config, progress=progress), inputs.digest()
    inputs = project_report_inputs(run=run)
    sections = project_report(inputs, config=run.config, progress=lambda stage, f: progress(stage, 0.6 * f))
    from evaluation.ambiguity_inputs import ambiguity_sections  # on the inputs chosen when the run started

    sections.update(ambiguity_sections(run=run, progress=lambda stage, f: progress(stage, 0.6 + 0.4 * f)))
    return sections, inputs.digest()


def evaluation_resume_interrupted() -> int:
    """Re-enqueue runs that are queued or whose worker stopped (called when a worker starts)."""
    ids = list(EvaluationRun.objects.filter(status__in=EvaluationRun.ACTIVE).values_list("pk", flat=True))
    for run_id in ids:
        evaluation_schedule(run_id=run_id)
    return len(ids)
