"""``manage.py train_mc_model``: fine-tune a multiple-choice model and register it, as a training job.

    train_mc_model (--tsv PATH | --round NAME) --name VERSION [--base CHECKPOINT] [--epochs E]
                   [--lr LR] [--batch-size B] [--eval-tsv PATH] [--make-live ROUND] [--no-wait]

The command checks its arguments and files, then starts a ``TrainingJob`` that a worker runs
(``collector.services.training_command``); by default it follows that job until it ends (progress
on stderr, the result on stdout, a non-zero exit if it fails). Ctrl+C stops the following, not the
job. With ``--no-wait`` it only starts the job. The files must be readable by the worker.
"""
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from collector.cleaning import first_message
from collector.models import TrainingJob
from collector.selectors.rounds import round_get_by_name
from collector.services.training_command import training_command_start
from core.exceptions import AccessError, ImportFailed
from core.management.follow import ProgressLine, job_follow_done
from mlcore.configs import FineTuneConfig
from modelhub.progress import training_job_display


def progress_show(job: TrainingJob, line: ProgressLine) -> None:
    """The job's progress as its round page words it; piped, a new line per stage and tenth of the steps."""
    shown, progress = training_job_display(job), job.progress or {}
    line.update(shown["percent"], shown["progress"], key=(job.status, progress.get("stage"), int(shown["percent"] // 10)))


class Command(BaseCommand):
    help = ("Fine-tune a multiple-choice model on CODAH-style questions and register it as a model version. "
            "A worker trains it as a training job; the command follows the job unless --no-wait.")

    def add_arguments(self, parser: CommandParser) -> None:
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--tsv", type=Path, help="Training questions as CODAH TSV")
        source.add_argument("--round", dest="round_name", help="Train on the questions of this round")
        parser.add_argument("--name", required=True, help="Name of the new model version")
        parser.add_argument("--base", help="Starting checkpoint: folder, registered version name or hub id "
                            "(default: STUMPER_BASE_CHECKPOINT)")
        defaults = FineTuneConfig()
        parser.add_argument("--epochs", type=int, default=defaults.epochs)
        parser.add_argument("--lr", type=float, default=defaults.learning_rate)
        parser.add_argument("--batch-size", type=int, default=defaults.batch_size)
        parser.add_argument("--eval-tsv", type=Path, help="Held-out CODAH TSV to report accuracy on")
        parser.add_argument("--make-live", metavar="ROUND", help="Make the new version this round's live model")
        parser.add_argument("--no-wait", action="store_true", help="Only start the training job; do not follow it")

    def handle(self, *args, **options) -> None:
        try:
            # Everything that can be wrong with the arguments fails here, before a worker spends minutes on it.
            live_round = round_get_by_name(name=options["make_live"]) if options["make_live"] else None
            source_round = round_get_by_name(name=options["round_name"]) if options["round_name"] else None
            job = training_command_start(
                name=options["name"], tsv=options["tsv"], source_round=source_round, eval_tsv=options["eval_tsv"],
                base=options["base"], epochs=options["epochs"], learning_rate=options["lr"],
                batch_size=options["batch_size"], live_round=live_round,
            )
        except AccessError as error:
            raise CommandError(str(error.message)) from None
        except ImportFailed as error:
            raise CommandError(str(error)) from None
        except ValidationError as error:
            raise CommandError(first_message(error)) from None
        except (ValueError, OSError, UnicodeDecodeError) as error:
            raise CommandError(str(error)) from None
        options_ = job.options
        self.stdout.write(f"Training {job.name!r} on {options_['questions']} questions ({options_['epochs']} epoch(s), "
                          f"lr {options_['learning_rate']}, batch {options_['batch_size']}): training job {job.pk}")
        if options["no_wait"]:
            self.stdout.write(f"Queued training job {job.pk}; a worker will run it")
            return
        ended = job_follow_done(TrainingJob, job.pk, stderr=self.stderr, show=progress_show)
        self._report(ended)

    def _report(self, job: TrainingJob) -> None:
        version, live_round = job.model_version, job.make_live_round
        metrics = version.metrics
        self.stdout.write(f"Saved {version.name} to {version.path} (revision {version.revision})")
        if metrics.get("eval_accuracy") is not None:
            self.stdout.write(f"Eval accuracy: {metrics['eval_accuracy']:.3f} on {metrics['eval_examples']} questions")
        if live_round is not None:
            self.stdout.write(f"{version.name} is now the live model of round {live_round.name}")
