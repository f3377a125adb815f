"""``manage.py score_round``: cross-validation scoring (or the answer-only baseline) of a round.

    score_round --round NAME [--folds 5] [--trials 1] [--answer-only] [--seed 0] [--wait]

Without ``--wait`` the run is queued for a Celery worker. With ``--wait`` this process runs it
(in a thread, no worker needed) and shows its progress, polled from the database like the
round page does; if a worker already holds the run, the command follows that worker instead.
"""
import argparse
import threading
import time

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from collector.models import ScoringRun
from collector.presentation.cv_accuracy import fold_questions, small_folds_warning
from collector.presentation.scoring import scoring_percent, scoring_progress_text, scoring_result_text
from collector.selectors.rounds import round_get_by_name
from collector.selectors.scoring import scoring_run_folds, scoring_run_get
from collector.services.scoring import ScoringRefused, scoring_run, scoring_start
from core.exceptions import AccessError

POLL_SECONDS = 0.5


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
        "Score a round's questions in cross-validation (or run the answer-only baseline). "
        "Without --wait the run is queued for a worker; with --wait it runs here with a progress bar "
        "and the command fails if the run fails."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--round", required=True, dest="round_name", help="Round name")
        parser.add_argument("--folds", type=int_between(2, 20), default=5, help="Number of folds, 2-20 (default 5)")
        parser.add_argument("--trials", type=int_between(1, 10), default=1,
                            help="Repetitions with different training seeds, 1-10 (default 1)")
        parser.add_argument("--answer-only", action="store_true",
                            help="CODAH's answer-only baseline: prompts blanked in training and evaluation")
        parser.add_argument("--seed", type=int, default=0, help="Seed of the fold assignment (default 0)")
        parser.add_argument("--wait", action="store_true", help="Run it in this process and show progress")

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
        run = self._run_and_follow(run.pk)
        self._report(run)
        if run.status == ScoringRun.Status.FAILED:
            raise CommandError(f"Scoring run {run.pk} failed: {run.error}")
        if run.status == ScoringRun.Status.CANCELLED:
            raise CommandError(f"Scoring run {run.pk} was cancelled; it keeps its finished folds and can be resumed "
                               "from the round page or POST /api/scoring/runs/<id>/resume/.")

    def _run_and_follow(self, run_id: int) -> ScoringRun:
        thread = threading.Thread(target=_score_in_thread, args=(run_id,), name=f"scoring-run-{run_id}", daemon=True)
        thread.start()
        line = ProgressLine(self.stdout)
        told_about_worker = False
        try:
            while True:
                alive = thread.is_alive()  # before the read, so a finished thread's last state is seen
                run = scoring_run_get(run_id=run_id)
                for fold in scoring_run_folds(run_id=run_id, after_id=line.last_fold_id):
                    line.fold_done(fold, trials=run.trials, folds=run.folds)
                line.update(run)
                if run.status not in ScoringRun.ACTIVE:
                    break
                if not alive and not told_about_worker:
                    told_about_worker = True  # scoring_run returned at once: a live worker holds the run
                    line.note("A worker is already running it; following its progress (Ctrl+C stops watching).")
                time.sleep(POLL_SECONDS)
        except KeyboardInterrupt:
            line.finish()
            raise CommandError(
                f"Interrupted. Run {run_id} keeps its finished folds; a worker resumes the rest when it starts."
            ) from None
        line.finish()
        thread.join(timeout=5)
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


def _score_in_thread(run_id: int) -> None:
    try:
        scoring_run(run_id=run_id)  # records its own failures on the run
    finally:
        connections.close_all()  # this thread's connections


class ProgressLine:
    """A self-rewriting progress line on a terminal (a new line per change of fold or stage when
    piped), plus a permanent line for each finished fold."""

    WIDTH = 24

    def __init__(self, stdout) -> None:
        self.stdout = stdout
        self.interactive = stdout.isatty()
        self.shown_width = 0
        self.last_key = None
        self.last_fold_id = 0

    def _text(self, run: ScoringRun) -> str:
        percent = scoring_percent(run.status, run.progress or {})
        filled = int(percent / 100 * self.WIDTH)
        # Queued here means "this process is about to claim it", not "waiting for a worker".
        words = "Starting." if run.status == ScoringRun.Status.QUEUED else scoring_progress_text(run, run.progress or {})
        return f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {percent:5.1f}% {words}"

    def update(self, run: ScoringRun) -> None:
        text = self._text(run)
        if self.interactive:
            self.stdout.write("\r" + text.ljust(self.shown_width), ending="")
            self.stdout.flush()
            self.shown_width = len(text)
            return
        progress = run.progress or {}
        key = (run.status, progress.get("stage"), progress.get("trial"), progress.get("fold"), progress.get("done_folds"))
        if key != self.last_key:
            self.last_key = key
            self.stdout.write(text)

    def fold_done(self, fold, *, trials: int, folds: int) -> None:
        """A permanent line per finished fold (polling alone could miss a fast fold)."""
        self.last_fold_id = fold.pk
        trial = f"trial {fold.trial + 1}/{trials} " if trials > 1 else ""
        self.note(f"  {trial}fold {fold.fold + 1}/{folds} done: accuracy {100 * fold.accuracy:.1f}% on "
                  f"{fold.n_test} questions (trained on {fold.n_train}, {fold.seconds:.1f} s)")

    def note(self, text: str) -> None:
        self.finish()
        self.stdout.write(text)

    def finish(self) -> None:
        if self.interactive and self.shown_width:
            self.stdout.write("")
            self.shown_width = 0
