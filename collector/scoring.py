"""Cross-validation scoring of a round (services): start a run, score it fold by fold, resume.

CODAH rewards a question again when a model fine-tuned on the *other* submissions still gets it
wrong. A ``ScoringRun`` snapshots the round's questions, assigns stratified folds
(``mlcore.crossval``), and for every (trial, fold) fine-tunes the round's base checkpoint on the
other folds and predicts the held-out one. Each finished fold is committed with its predictions,
so a run interrupted by a killed worker resumes with only the missing folds.
"""
import dataclasses
import logging
import time
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from collector.models import CVPrediction, Question, Round, ScoringFold, ScoringRun
from collector.ownership import held_by_another_worker, worker_owner
from mlcore.configs import CATEGORY_CODES, FineTuneConfig, MCExample, TrainProgress
from mlcore.crossval import answer_only_summary, cv_summary, stratified_folds
from mlcore.cv_runner import FoldRunner

logger = logging.getLogger(__name__)

_LETTER = {name: letter for letter, name in CATEGORY_CODES.items()}
PROGRESS_WRITE_SECONDS = 1.0


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
    """Queue a scoring run of every question in the round now; refused while one is active."""
    question_ids = list(Question.objects.filter(round=round_).order_by("id").values_list("id", flat=True))
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
    try:
        with transaction.atomic():
            run.save()
    except IntegrityError:
        active = ScoringRun.objects.filter(round=round_, kind=kind, status__in=ScoringRun.ACTIVE).first()
        since = f" (started {active.created_at:%Y-%m-%d %H:%M} UTC)" if active else ""
        raise ScoringRefused(
            f"A {run.get_kind_display().lower()} run of round {round_.name} is already in progress{since}; "
            "wait until it finishes."
        ) from None
    transaction.on_commit(lambda: scoring_schedule(run_id=run.pk))
    return run


def scoring_schedule(*, run_id: int) -> None:
    from collector.tasks import scoring_run_task

    try:
        scoring_run_task.delay(run_id)
    except Exception:
        logger.exception("Could not enqueue scoring run %s; a worker will resume it when it starts", run_id)


def _claim(run_id: int) -> ScoringRun | None:
    """Mark the run as ours unless it is finished or another live worker is on it."""
    with transaction.atomic():
        run = ScoringRun.objects.select_for_update().get(pk=run_id)
        if run.status in (ScoringRun.Status.DONE, ScoringRun.Status.FAILED):
            return None
        owner = run.progress.get("owner", "")
        if held_by_another_worker(running=run.status == ScoringRun.Status.RUNNING, owner=owner,
                                  heartbeat_at=run.heartbeat_at, stale_after=timedelta(seconds=settings.STUMPER_SCORING_STALE_SECONDS)):
            return None
        run.status = ScoringRun.Status.RUNNING
        run.started_at = run.started_at or timezone.now()
        run.heartbeat_at = timezone.now()
        run.progress = {**run.progress, "owner": worker_owner(), "stage": "starting"}
        run.error = ""
        run.save()
    return run


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


class _ProgressWriter:
    """Stores training progress on the run at most once a second (the page and CLI poll it)."""

    def __init__(self, run: ScoringRun, trial: int, fold: int):
        self.run, self.trial, self.fold, self.last = run, trial, fold, 0.0

    def __call__(self, step: TrainProgress) -> None:
        now = time.monotonic()
        if now - self.last < PROGRESS_WRITE_SECONDS and step.step < step.total_steps:
            return
        self.last = now
        per_step = step.elapsed_seconds / max(step.step, 1)
        remaining_folds = self.run.progress["total_folds"] - self.run.progress["done_folds"] - 1
        eta = per_step * (step.total_steps - step.step) + remaining_folds * per_step * step.total_steps
        _save_progress(self.run, stage="training", trial=self.trial, fold=self.fold, step=step.step,
                       total_steps=step.total_steps, loss=round(step.loss, 4), eta_seconds=round(eta))


def _save_progress(run: ScoringRun, **fields) -> None:
    run.progress = {**run.progress, **fields}
    ScoringRun.objects.filter(pk=run.pk).update(progress=run.progress, heartbeat_at=timezone.now())


def scoring_run(*, run_id: int) -> ScoringRun:
    """Score every unfinished (trial, fold) of the run; idempotent and resumable."""
    run = _claim(run_id)
    if run is None:
        return ScoringRun.objects.get(pk=run_id)
    try:
        _score_missing_folds(run)
        _finish(run)
    except Exception as error:
        logger.exception("Scoring run %s failed", run_id)
        ScoringRun.objects.filter(pk=run_id).update(
            status=ScoringRun.Status.FAILED, error=f"{type(error).__name__}: {error}"[:4000],
            finished_at=timezone.now(),
        )
    return ScoringRun.objects.get(pk=run_id)


def _score_missing_folds(run: ScoringRun) -> None:
    questions, examples = _examples(run)
    ids = [q.pk for q in questions]
    assignment = stratified_folds(ids, [_stratum(q) for q in questions], k=run.folds, rng=run.seed)
    done = set(run.fold_results.values_list("trial", "fold"))
    _save_progress(run, done_folds=len(done), stage="preparing")
    missing = [(t, f) for t in range(run.trials) for f in range(run.folds) if (t, f) not in done]
    if not missing:
        return
    config = FineTuneConfig(**run.config)
    runner = FoldRunner(run.base_checkpoint, examples, config)  # frozen-layer cache built once per run
    position = {pk: index for index, pk in enumerate(ids)}
    for trial, fold in missing:
        test_ids = assignment.test_ids(fold)
        train_index = [position[pk] for pk in assignment.train_ids(fold)]
        test_index = [position[pk] for pk in test_ids]
        started = time.monotonic()
        predictions = runner.run_fold(
            train_index, test_index, seed=config.seed + trial, progress=_ProgressWriter(run, trial, fold)
        )
        _store_fold(run, trial, fold, [questions[i] for i in test_index], predictions, len(train_index),
                    time.monotonic() - started)
        _save_progress(run, done_folds=run.fold_results.count(), stage="training")


@transaction.atomic
def _store_fold(run, trial, fold, questions, predictions, n_train, seconds) -> None:
    if ScoringFold.objects.filter(run=run, trial=trial, fold=fold).exists():
        return  # another worker finished this fold first
    rows = [
        CVPrediction(run=run, question=q, trial=trial, fold=fold, probs=list(p.probs),
                     predicted_index=p.predicted, correct=p.predicted == q.correct_index)
        for q, p in zip(questions, predictions)
    ]
    CVPrediction.objects.bulk_create(rows)
    accuracy = sum(row.correct for row in rows) / len(rows)
    ScoringFold.objects.create(run=run, trial=trial, fold=fold, accuracy=accuracy, n_train=n_train,
                               n_test=len(rows), seconds=round(seconds, 2))


def _finish(run: ScoringRun) -> None:
    """Summarise the out-of-fold predictions (SPEC §5.3/§5.5) and mark the run done."""
    questions, _ = _examples(run)
    ids = [q.pk for q in questions]
    gold = [q.correct_index for q in questions]
    predicted = {(p.trial, p.question_id): p.predicted_index for p in run.predictions.all()}
    oof = [[predicted[(t, pk)] for pk in ids] for t in range(run.trials)]
    assignment = stratified_folds(ids, [_stratum(q) for q in questions], k=run.folds, rng=run.seed)
    result = cv_summary(gold, oof, assignment)
    summary = {
        "accuracy": result.statistic, "mean": result.mean, "std": None if result.std != result.std else result.std,
        "fold_accuracy": [list(map(float, row)) for row in result.fold_accuracy],
        "questions": len(ids),
    }
    if run.kind == ScoringRun.Kind.ANSWER_ONLY:
        answer_only = answer_only_summary(gold, oof[0])
        summary.update(answer_only_accuracy=answer_only.statistic, binomial_pvalue=answer_only.pvalue,
                       binomial_log10_pvalue=answer_only.log10_pvalue)
    ScoringRun.objects.filter(pk=run.pk).update(
        status=ScoringRun.Status.DONE, summary=summary, finished_at=timezone.now(),
        progress={**run.progress, "stage": "done", "done_folds": run.folds * run.trials, "eta_seconds": 0},
    )


def scoring_resume_interrupted() -> int:
    """Re-enqueue runs that are queued or whose worker stopped (called when a worker starts)."""
    ids = list(ScoringRun.objects.filter(status__in=ScoringRun.ACTIVE).values_list("pk", flat=True))
    for run_id in ids:
        scoring_schedule(run_id=run_id)
    return len(ids)
