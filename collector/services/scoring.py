"""Cross-validation scoring of a round (services): start a run, score it fold by fold, cancel and
resume it.

CODAH rewards a question again when a model fine-tuned on the *other* submissions still gets it
wrong. A ``ScoringRun`` snapshots the round's questions, assigns stratified folds
(``mlcore.models.crossval``) and stores each question's fold (``ScoringRunAssignment``), and for every
(trial, fold) fine-tunes the round's base checkpoint on the other folds and predicts the held-out
one. Each finished fold is committed with its predictions, so a run interrupted by a killed worker
resumes with only the missing folds, on the folds stored at its start: a question deleted
meanwhile is simply missing from its fold, and nothing else moves.

Cancelling (``scoring_cancel``) marks the run ``cancelled`` at once; the worker running it notices
between training steps (at most about a second later) or before its next fold and stops without
storing the fold it was on. Finished folds stay stored, so resuming (``scoring_resume``) queues the
run again and only the missing folds are trained (``scoring_run`` skips the stored ones).
"""
import dataclasses
import logging
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from collector.models import CVPrediction, Question, Round, ScoringFold, ScoringRun, ScoringRunAssignment
from collector.signals import credit_changed
from core.jobs import (
    ProgressWriter,
    job_claim,
    job_done,
    job_fail,
    job_progress_save,
    job_push,
    jobs_resume,
    task_enqueue,
)
from mlcore.configs import CATEGORY_CODES, FineTuneConfig, MCExample, TrainProgress
from mlcore.models.crossval import FoldAssignment, answer_only_summary, cv_summary, stratified_folds
from mlcore.models.cv_runner import FoldRunner

logger = logging.getLogger(__name__)

_LETTER = {name: letter for letter, name in CATEGORY_CODES.items()}


class ScoringCancelled(Exception):
    """The run was cancelled while this worker ran it; raised between steps and folds."""


class ScoringRefused(Exception):
    """A scoring run cannot start now; the message says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def scoring_config_for(*, round_: Round, kind: str) -> FineTuneConfig:
    """The fast CPU preset, with the round's overrides; answer-only blanks the prompt."""
    fields = {**dataclasses.asdict(FineTuneConfig.fast_cv()), **(round_.scoring_config or {})}
    fields["answer_only"] = kind == ScoringRun.Kind.ANSWER_ONLY
    try:
        return FineTuneConfig(**fields)
    except (TypeError, ValueError) as error:
        raise ValidationError({"scoring_config": f"The round's scoring settings are invalid: {error}"}) from None


def scoring_start(
    *, round_: Round, user: User | None = None, kind: str = ScoringRun.Kind.CROSS_VALIDATION,
    folds: int = 5, trials: int = 1, seed: int = 0,
) -> ScoringRun:
    """Queue a scoring run of every question in the round now, with each question's fold stored;
    refused while one is active."""
    questions = list(Question.objects.filter(round=round_).order_by("id").only("id", "categories"))
    question_ids = [q.pk for q in questions]
    if len(question_ids) < max(folds, 2):
        raise ScoringRefused(
            f"Round {round_.name} has {len(question_ids)} question(s); {folds}-fold scoring needs at least {folds}."
        )
    config = scoring_config_for(round_=round_, kind=kind)
    run = ScoringRun(
        round=round_, kind=kind, folds=folds, trials=trials, seed=seed, created_by=user,
        base_checkpoint=round_.base_checkpoint or settings.STUMPER_BASE_CHECKPOINT,
        config=dataclasses.asdict(config), question_ids=question_ids,
        progress={"done_folds": 0, "total_folds": folds * trials},
    )
    run.full_clean(validate_constraints=False)
    with _one_active_run(refusal=lambda: _already_active(run)):
        run.save()
        _store_folds(run, _computed_folds(run, questions))
    job_push(run, run.status)
    transaction.on_commit(lambda: scoring_schedule(run_id=run.pk))
    return run


@contextmanager
def _one_active_run(*, refusal: Callable[[], str]) -> Iterator[None]:
    """Queue a run inside the block, atomically; the database refuses a second active run of the
    same round and kind (``one_active_scoring_run``), which becomes ``ScoringRefused(refusal())``."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise ScoringRefused(refusal()) from None


def _already_active(run: ScoringRun) -> str:
    active = ScoringRun.objects.filter(round=run.round, kind=run.kind, status__in=ScoringRun.ACTIVE).first()
    since = f" (started {active.created_at:%Y-%m-%d %H:%M} UTC)" if active else ""
    return (f"A {run.get_kind_display().lower()} run of round {run.round.name} is already in progress{since}; "
            "wait until it finishes.")


def scoring_schedule(*, run_id: int) -> None:
    task_enqueue("collector.scoring_run", run_id)


def _claim(run_id: int) -> ScoringRun | None:
    """Mark the run as ours unless it is finished or another live worker is on it."""
    return job_claim(ScoringRun, run_id, resumable=True, stale_after=_stale_after(),
                     progress=lambda stored: {**stored, "stage": "starting"})


def _stale_after() -> timedelta:
    return timedelta(seconds=settings.STUMPER_SCORING_STALE_SECONDS)


def _examples(run: ScoringRun) -> tuple[list[Question], list[MCExample]]:
    by_id = Question.objects.in_bulk(run.question_ids)
    questions = [by_id[pk] for pk in run.question_ids if pk in by_id]  # deleted questions drop out
    examples = [
        MCExample(prompt=q.prompt, choices=tuple(q.choices), label=q.correct_index, categories=tuple(q.categories))
        for q in questions
    ]
    return questions, examples


def _stratum(question: Question) -> str:
    return "".join(sorted(_LETTER[c] for c in question.categories)) or "o"


def _computed_folds(run: ScoringRun, questions: list[Question]) -> dict[int, int]:
    """SPEC-bias §5.2 folds of ``questions`` under the run's seed: question id -> fold."""
    assignment = stratified_folds([q.pk for q in questions], [_stratum(q) for q in questions],
                                  k=run.folds, rng=run.seed)
    return dict(zip(assignment.ids, assignment.folds))


def _store_folds(run: ScoringRun, fold_of: dict[int, int]) -> None:
    """Store the folds for every trial; rows already there are kept (idempotent)."""
    ScoringRunAssignment.objects.bulk_create(
        [ScoringRunAssignment(run=run, question_id=pk, trial=trial, fold=fold)
         for trial in range(run.trials) for pk, fold in fold_of.items()],
        ignore_conflicts=True,
    )


def _run_folds(run: ScoringRun, questions: list[Question]) -> dict[int, dict[int, int]]:
    """Per trial, question id -> fold as stored at the run's start, for the questions that still
    exist (in ``questions`` order, so test and train sets keep the order they always had)."""
    rows = list(run.assignments.values_list("trial", "question_id", "fold"))
    if not rows:
        _legacy_folds(run, questions)
        rows = list(run.assignments.values_list("trial", "question_id", "fold"))
    stored: dict[int, dict[int, int]] = defaultdict(dict)
    for trial, question_id, fold in rows:
        stored[trial][question_id] = fold
    return {t: {q.pk: stored[t][q.pk] for q in questions if q.pk in stored[t]} for t in range(run.trials)}


@transaction.atomic
def _legacy_folds(run: ScoringRun, questions: list[Question]) -> None:
    """Store folds for a run started before they were stored (migration 0005).

    They are computed from the run's questions that exist now, as every resume did before; that
    is the original split unless a question was deleted. If it was, folds the run finished no
    longer match the split (a question would be predicted twice or never), so they are dropped
    and scored again.
    """
    if run.assignments.exists():
        return  # another worker stored them first
    fold_of = _computed_folds(run, questions)
    if any(fold_of.get(question_id) != fold for question_id, fold in run.predictions.values_list("question_id", "fold")):
        logger.warning("Scoring run %s: questions were deleted before its folds were stored; "
                       "its finished folds are scored again on the new split", run.pk)
        run.predictions.all().delete()
        run.fold_results.all().delete()
    _store_folds(run, fold_of)


class _ProgressWriter(ProgressWriter):
    """Stores training progress on the run at most once a second (each write is pushed to the page; the CLI reads it)."""

    def __init__(self, run: ScoringRun, trial: int, fold: int):
        super().__init__(run)
        self.run, self.trial, self.fold = run, trial, fold

    def __call__(self, step: TrainProgress) -> None:
        per_step = step.elapsed_seconds / max(step.step, 1)
        remaining_folds = self.run.progress["total_folds"] - self.run.progress["done_folds"] - 1
        eta = per_step * (step.total_steps - step.step) + remaining_folds * per_step * step.total_steps
        if self.save(final=step.step >= step.total_steps, stage="training", trial=self.trial, fold=self.fold,
                     step=step.step, total_steps=step.total_steps, loss=round(step.loss, 4), eta_seconds=round(eta)):
            _stop_if_cancelled(self.run)  # checked as often as progress is written, about once a second


def _stop_if_cancelled(run: ScoringRun) -> None:
    """Raise ``ScoringCancelled`` once an instructor cancelled the run (``scoring_cancel``)."""
    if ScoringRun.objects.filter(pk=run.pk, status=ScoringRun.Status.CANCELLED).exists():
        raise ScoringCancelled


def scoring_run(*, run_id: int) -> ScoringRun:
    """Score every unfinished (trial, fold) of the run; idempotent and resumable."""
    run = _claim(run_id)
    if run is None:
        return ScoringRun.objects.get(pk=run_id)
    try:
        _score_missing_folds(run)
        _finish(run)
    except ScoringCancelled:
        logger.info("Scoring run %s was cancelled; its finished folds are kept", run_id)
    except Exception as error:
        logger.exception("Scoring run %s failed", run_id)
        if not ScoringRun.objects.filter(pk=run_id, status=ScoringRun.Status.CANCELLED).exists():
            job_fail(run, error)
    return ScoringRun.objects.get(pk=run_id)


def _score_missing_folds(run: ScoringRun) -> None:
    questions, examples = _examples(run)
    fold_of = _run_folds(run, questions)
    done = set(run.fold_results.values_list("trial", "fold"))
    job_progress_save(run, done_folds=len(done), stage="preparing")
    # A fold whose every question was deleted has nothing to predict.
    missing = [(t, f) for t in range(run.trials) for f in range(run.folds)
               if (t, f) not in done and f in fold_of[t].values()]
    if not missing:
        return
    config = FineTuneConfig(**run.config)
    runner = FoldRunner(run.base_checkpoint, examples, config)  # frozen-layer cache built once per run
    position = {q.pk: index for index, q in enumerate(questions)}
    for trial, fold in missing:
        _stop_if_cancelled(run)
        train_index = [position[pk] for pk, f in fold_of[trial].items() if f != fold]
        test_index = [position[pk] for pk, f in fold_of[trial].items() if f == fold]
        started = time.monotonic()
        predictions = runner.run_fold(
            train_index, test_index, seed=config.seed + trial, progress=_ProgressWriter(run, trial, fold)
        )
        _store_fold(run, trial, fold, [questions[i] for i in test_index], predictions, len(train_index),
                    time.monotonic() - started)
        job_progress_save(run, done_folds=run.fold_results.count(), stage="training")


@transaction.atomic
def _store_fold(run, trial, fold, questions, predictions, n_train, seconds) -> None:
    if ScoringFold.objects.filter(run=run, trial=trial, fold=fold).exists():
        return  # another worker finished this fold first
    # Questions deleted while the fold trained lose their prediction; the lock keeps the rest.
    alive = set(Question.objects.select_for_update().filter(pk__in=[q.pk for q in questions])
                .values_list("pk", flat=True))
    rows = [
        CVPrediction(run=run, question=q, trial=trial, fold=fold, probs=list(p.probs),
                     predicted_index=p.predicted, correct=p.predicted == q.correct_index)
        for q, p in zip(questions, predictions) if q.pk in alive
    ]
    if not rows:
        return
    CVPrediction.objects.bulk_create(rows)
    accuracy = sum(row.correct for row in rows) / len(rows)
    ScoringFold.objects.create(run=run, trial=trial, fold=fold, accuracy=accuracy, n_train=n_train,
                               n_test=len(rows), seconds=round(seconds, 2))


def _finish(run: ScoringRun) -> None:
    """Summarise the out-of-fold predictions (SPEC §5.3/§5.5) and mark the run done."""
    questions, _ = _examples(run)
    fold_of = _run_folds(run, questions)
    if any(fold_of[t] != fold_of[0] for t in range(run.trials)):
        raise ValueError("the trials of this run hold different folds; cv_summary needs one split")
    kept = [q for q in questions if q.pk in fold_of[0]]
    if not kept:
        raise ValueError("every question of this run was deleted; there is nothing to summarise")
    ids, gold = [q.pk for q in kept], [q.correct_index for q in kept]
    predicted = {(p.trial, p.question_id): p.predicted_index for p in run.predictions.all()}
    oof = [[predicted[(t, pk)] for pk in ids] for t in range(run.trials)]
    # Folds emptied by deletions are left out of the mean over folds (and shown as None).
    present = sorted(set(fold_of[0].values()))
    number = {fold: index for index, fold in enumerate(present)}
    assignment = FoldAssignment(tuple(ids), tuple(_stratum(q) for q in kept),
                                tuple(number[fold_of[0][pk]] for pk in ids), len(present), "stratified", run.seed)
    result = cv_summary(gold, oof, assignment)
    sizes = dict(zip(present, assignment.fold_sizes()))
    summary = {
        "accuracy": result.statistic, "mean": result.mean, "std": None if result.std != result.std else result.std,
        "fold_accuracy": [[float(row[number[f]]) if f in number else None for f in range(run.folds)]
                          for row in result.fold_accuracy],
        "fold_questions": [sizes.get(f, 0) for f in range(run.folds)],
        "questions": len(ids),
    }
    if run.kind == ScoringRun.Kind.ANSWER_ONLY:
        answer_only = answer_only_summary(gold, oof[0])
        summary.update(answer_only_accuracy=answer_only.statistic, binomial_pvalue=answer_only.pvalue,
                       binomial_log10_pvalue=answer_only.log10_pvalue)
    job_done(
        run, summary=summary,
        progress={**run.progress, "stage": "done", "done_folds": run.folds * run.trials, "eta_seconds": 0},
    )
    credit_changed.send(sender=ScoringRun, round_id=run.round_id, user_ids=None)


def scoring_resume_interrupted() -> int:
    """Re-enqueue runs that are queued or whose worker stopped (called when a worker starts)."""
    return jobs_resume(ScoringRun, enqueue=lambda pk: scoring_schedule(run_id=pk), resumable=True, stale_after=_stale_after())


def scoring_cancel(*, run_id: int, user: User | None = None) -> ScoringRun:
    """Cancel a queued or running scoring run; refused once it has ended."""
    with transaction.atomic():
        run = ScoringRun.objects.select_for_update().get(pk=run_id)
        if run.status not in ScoringRun.ACTIVE:
            raise ScoringRefused(f"Run {run.pk} is {run.get_status_display().lower()} already; there is nothing to cancel.")
        run.status = ScoringRun.Status.CANCELLED
        run.finished_at = timezone.now()
        run.progress = {**run.progress, "cancelled_by": user.username if user else ""}
        run.save(update_fields=["status", "finished_at", "progress"])
    job_push(run, run.status)
    return run


def scoring_resume(*, run_id: int, user: User | None = None) -> ScoringRun:
    """Queue a cancelled or failed run again; it trains only the folds it has not finished.

    Refused while another run of the same kind of this round is active (one at a time).
    """
    # The refusal is only built when the save below is refused, so ``run`` is bound by then.
    with _one_active_run(refusal=lambda: (
        f"Another {run.get_kind_display().lower()} run of round {run.round.name} is in progress; "
        "cancel it or wait until it finishes before resuming this one."
    )):
        run = ScoringRun.objects.select_for_update().get(pk=run_id)
        if run.status not in (ScoringRun.Status.CANCELLED, ScoringRun.Status.FAILED):
            raise ScoringRefused(
                f"Run {run.pk} is {run.get_status_display().lower()}; only a cancelled or failed run can be resumed."
            )
        run.status, run.error, run.finished_at = ScoringRun.Status.QUEUED, "", None
        run.progress = {key: value for key, value in run.progress.items() if key != "cancelled_by"}
        run.save(update_fields=["status", "error", "finished_at", "progress"])
    job_push(run, run.status)
    transaction.on_commit(lambda: scoring_schedule(run_id=run.pk))
    return run
