"""``manage.py score_round``: start the cross-validation scoring (or the answer-only baseline) of a round.

    score_round --round NAME [--folds 5] [--trials 1] [--answer-only] [--seed 0] [--wait]

The command starts the run as the round page does (``scoring_start``: a job row and its Celery
task). With ``--wait`` it follows that job until it ends: its progress and finished folds on
stderr, the summary on stdout, a non-zero exit if it fails. The work runs in a worker, never in
this process (unless Celery is configured to run tasks eagerly, as the tests are).
"""
import argparse

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from collector.models import ScoringRun
from collector.presentation.cv_accuracy import fold_questions, small_folds_warning
from collector.presentation.scoring import scoring_percent, scoring_progress_text, scoring_result_text
from collector.selectors.rounds import round_get_by_name
from collector.selectors.scoring import scoring_run_folds
from collector.services.scoring import ScoringRefused, scoring_start
from core.exceptions import AccessError
from core.management.follow import ProgressLine, job_follow


def int_between(low: int, high: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be between {low} and {high}, got {value}")
        return value

    return parse


def validation_message(error: ValidationError) -> str:
    """'field: message' pairs on one line (the CLI has no form to put them next to)."""
    if hasattr(error, "error_dict"):
        return " ".join(f"{field}: {' '.join(messages)}" for field, messages in error.message_dict.items())
    return " ".join(error.messages)


class Command(BaseCommand):
    help = (
        "Score a round's questions in cross-validation (or run the answer-only baseline). The run is queued "
        "for a worker; with --wait the command follows it (progress on stderr) and fails if the run fails."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--round", required=True, dest="round_name", help="Round name")
        parser.add_argument("--folds", type=int_between(2, 20), default=5, help="Number of folds, 2-20 (default 5)")
        parser.add_argument("--trials", type=int_between(1, 10), default=1,
                            help="Repetitions with different training seeds, 1-10 (default 1)")
        parser.add_argument("--answer-only", action="store_true",
                            help="CODAH's answer-only baseline: prompts blanked in training and evaluation")
        parser.add_argument("--seed", type=int, default=0, help="Seed of the fold assignment (default 0)")
        parser.add_argument("--wait", action="store_true", help="Follow the run until it ends and print its summary")

    def handle(self, *args, round_name: str, folds: int, trials: int, answer_only: bool, seed: int, wait: bool,
               **options) -> None:
        kind = ScoringRun.Kind.ANSWER_ONLY if answer_only else ScoringRun.Kind.CROSS_VALIDATION
        try:
            round_ = round_get_by_name(name=round_name)
            run = scoring_start(round_=round_, kind=kind, folds=folds, trials=trials, seed=seed)
        except (AccessError, ScoringRefused) as error:
            raise CommandError(error.message) from None
        except ValidationError as error:
            raise CommandError(validation_message(error)) from None
        if not wait:
            self.stdout.write(f"Queued scoring run {run.pk} of round {round_.name}; a worker will run it")
            return
        self.stdout.write(f"Scoring run {run.pk} of round {round_.name}: {run.get_kind_display().lower()}, "
                          f"{len(run.question_ids)} questions, {folds} folds x {trials} trial(s)")
        run = self._follow(run.pk)
        self._report(run)
        if run.status == ScoringRun.Status.FAILED:
            raise CommandError(f"Scoring run {run.pk} failed: {run.error}")
        if run.status == ScoringRun.Status.CANCELLED:
            raise CommandError(f"Scoring run {run.pk} was cancelled; it keeps its finished folds and can be resumed "
                               "from the round page or POST /api/scoring/runs/<id>/resume/.")

    def _follow(self, run_id: int) -> ScoringRun:
        folds_shown = {"last_id": 0}

        def show(run: ScoringRun, line: ProgressLine) -> None:
            # A permanent line per finished fold (reading the row alone could miss a fast fold).
            for fold in scoring_run_folds(run_id=run_id, after_id=folds_shown["last_id"]):
                folds_shown["last_id"] = fold.pk
                line.note(fold_done_text(fold, trials=run.trials, folds=run.folds))
            progress_show(run, line)

        run = job_follow(ScoringRun, run_id, line=ProgressLine(self.stderr), show=show)
        if run is None:
            raise CommandError(f"Stopped following run {run_id}; its worker goes on (cancel it from the round page "
                               "or POST /api/scoring/runs/<id>/cancel/).")
        return run

    def _report(self, run: ScoringRun) -> None:
        if run.status != ScoringRun.Status.DONE:
            return
        summary = run.summary
        self.stdout.write(scoring_result_text(run.kind, summary))
        warning = small_folds_warning(summary)
        if warning:
            self.stdout.write(f"Warning: {warning}")
        sizes = fold_questions(summary)
        if sizes:
            self.stdout.write("Questions per fold: " + "  ".join(str(size) for size in sizes))
        for trial, row in enumerate(summary.get("fold_accuracy") or []):
            folds = "  ".join("-" if accuracy is None else f"{100 * accuracy:.1f}%" for accuracy in row)
            self.stdout.write(f"Per-fold accuracy, trial {trial + 1}: {folds}")
        if run.kind == ScoringRun.Kind.CROSS_VALIDATION and summary.get("accuracy") is not None:
            fooled = summary.get("questions", 0) * (1 - summary["accuracy"])
            self.stdout.write(f"Fooled the cross-validated models: {fooled:.1f} of {summary.get('questions', 0)} "
                              "questions (averaged over trials)")


def progress_show(run: ScoringRun, line: ProgressLine) -> None:
    """The run's progress bar and words as the round page words them; piped, a new line per fold or stage."""
    progress = run.progress or {}
    key = (run.status, progress.get("stage"), progress.get("trial"), progress.get("fold"), progress.get("done_folds"))
    line.update(scoring_percent(run.status, progress), scoring_progress_text(run, progress), key=key)


def fold_done_text(fold, *, trials: int, folds: int) -> str:
    trial = f"trial {fold.trial + 1}/{trials} " if trials > 1 else ""
    return (f"  {trial}fold {fold.fold + 1}/{folds} done: accuracy {100 * fold.accuracy:.1f}% on "
            f"{fold.n_test} questions (trained on {fold.n_train}, {fold.seconds:.1f} s)")
