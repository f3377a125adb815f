"""Evaluation runs (services): start a report, compute it in a worker, store it whole.

``evaluation_start_round`` snapshots what the report will read (question ids, the finished
scoring runs, the live model) and queues ``evaluation_run``. That service is idempotent: a
finished or failed run is left alone, a run another live worker holds is skipped, and the
result is written once at the end, so a crash never leaves half a report.
"""
from __future__ import annotations

import logging
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from annotation.models import Project
from collector.models import Round, ScoringRun
from core.jobs import ProgressWriter, job_claim, job_done, job_fail, jobs_resume, task_enqueue
from evaluation.models import EvaluationRun
from evaluation.reports.projects import project_report
from evaluation.reports.rounds import round_report
from evaluation.reports.sections import check_section
from evaluation.selectors import reports as report_selectors
from evaluation.services import ambiguity_datasets

logger = logging.getLogger(__name__)

DEFAULT_CONFIG = {"k": 50, "p0": "uniform", "min_count": None, "max_steps": 3000, "seed": 0}
LIMITS = {"k": (1, 500), "min_count": (1, 1_000_000), "max_steps": (0, 20_000), "seed": (0, 2**31 - 1)}
P0_CHOICES = ("uniform", "prior")
# A run whose worker has not written progress for this long is taken over by the next worker.
STALE_AFTER = timedelta(minutes=10)
TASK_NAME = "evaluation.evaluation_run"


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
    cv = report_selectors.latest_finished_scoring_run(round_=round_, kind=ScoringRun.Kind.CROSS_VALIDATION)
    answer_only = report_selectors.latest_finished_scoring_run(round_=round_, kind=ScoringRun.Kind.ANSWER_ONLY)
    run = EvaluationRun(
        target=EvaluationRun.Target.ROUND, round=round_,
        snapshot={
            "question_ids": report_selectors.round_question_ids(round_=round_),
            "cv_run_id": cv.pk if cv else None,
            "answer_only_run_id": answer_only.pk if answer_only else None,
        },
    )
    return _start(run, config=config, user=user, version=round_.live_model, what=f"round {round_.name}",
                  active=lambda: report_selectors.active_evaluation_run(round_=round_))


def evaluation_start_project(*, project: Project, user: User | None = None, config: dict | None = None,
                             ambiguity: dict | None = None) -> EvaluationRun:
    """Queue a report of the annotation project as it is now (its QA model answers the probes).

    ``ambiguity`` is the probes' inputs chosen for this report (``evaluation/services/ambiguity_datasets.py``).
    """
    config = evaluation_config_clean(config)
    run = EvaluationRun(target=EvaluationRun.Target.PROJECT, project=project,
                        snapshot={"question_ids": report_selectors.project_question_ids(project=project),
                                  **({"ambiguity": ambiguity} if ambiguity else {})})
    return _start(run, config=config, user=user, version=project.qa_model, what=f"project {project.name}",
                  active=lambda: report_selectors.active_evaluation_run(project=project))


def evaluation_start_project_with_inputs(
    *, project: Project, user: User | None = None, config: dict | None = None,
    questions: str | int | None = None, occupations: str | int | None = None,
    questions_upload: ambiguity_datasets.Upload | None = None,
    occupations_upload: ambiguity_datasets.Upload | None = None,
) -> EvaluationRun:
    """Store the uploads, then queue the report with the chosen inputs; all or nothing.

    An upload becomes the choice of its kind. A bad upload or choice (ValidationError), or a
    refused start (another report is running), saves nothing.
    """
    ambiguity_datasets.selectional_requirement_check(project=project, questions=questions, upload=questions_upload)
    with transaction.atomic():
        if questions_upload is not None:
            questions = ambiguity_datasets.ambiguity_dataset_create(
                project=project, kind=ambiguity_datasets.QUESTIONS, upload=questions_upload, user=user).pk
        if occupations_upload is not None:
            occupations = ambiguity_datasets.ambiguity_dataset_create(
                project=project, kind=ambiguity_datasets.OCCUPATIONS, upload=occupations_upload, user=user).pk
        ambiguity = ambiguity_datasets.ambiguity_choice_clean(project=project, questions=questions,
                                                              occupations=occupations)
        return evaluation_start_project(project=project, user=user, config=config, ambiguity=ambiguity)


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
    task_enqueue(TASK_NAME, run_id)


def _claim(run_id: int) -> EvaluationRun | None:
    """Mark the run as ours unless it is finished or another live worker is on it."""
    return job_claim(EvaluationRun, run_id, resumable=True, stale_after=STALE_AFTER,
                     progress=lambda stored: {"stage": "Reading the data", "percent": 0.0})


class _ProgressWriter(ProgressWriter):
    """Writes ``{stage, percent}`` and the heartbeat at most twice a second (each write is pushed to the page)."""

    every = 0.5

    def __call__(self, stage: str, fraction: float) -> None:
        self.save(stage=stage, percent=round(100 * min(max(fraction, 0.0), 1.0), 1))


def evaluation_run(*, run_id: int) -> EvaluationRun:
    """Compute and store the run's report; idempotent (see the module docstring)."""
    run = _claim(run_id)
    if run is None:
        return report_selectors.evaluation_run_get(run_id=run_id)
    try:
        sections, digest = _compute(run, _ProgressWriter(run))
        sections = {name: check_section(name, value) for name, value in sections.items()}
    except Exception as error:
        logger.exception("Evaluation run %s failed", run_id)
        job_fail(run, error, progress={"stage": "Failed", "percent": run.progress.get("percent", 0.0)})
    else:
        job_done(run, result=sections, snapshot_digest=digest, progress={"stage": "Done", "percent": 100.0})
    return report_selectors.evaluation_run_get(run_id=run_id)


def _compute(run: EvaluationRun, progress: _ProgressWriter) -> tuple[dict[str, dict], str]:
    if run.target == EvaluationRun.Target.ROUND:
        inputs = report_selectors.round_report_inputs(run=run)
        return round_report(inputs, config=run.config, progress=progress), inputs.digest()
    inputs = report_selectors.project_report_inputs(run=run)
    sections = project_report(inputs, config=run.config, progress=lambda stage, f: progress(stage, 0.6 * f))
    sections.update(ambiguity_datasets.ambiguity_sections(run=run,  # on the inputs chosen when the run started
                                                          progress=lambda stage, f: progress(stage, 0.6 + 0.4 * f)))
    return sections, inputs.digest()


def evaluation_resume_interrupted() -> int:
    """Re-enqueue runs that are queued or whose worker stopped (called when a worker starts)."""
    return jobs_resume(EvaluationRun, enqueue=lambda pk: evaluation_schedule(run_id=pk), resumable=True, stale_after=STALE_AFTER)
