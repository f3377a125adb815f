"""``manage.py train_mc_model``: fine-tune a multiple-choice model and register it.

    train_mc_model (--tsv PATH | --round NAME) --name VERSION [--base CHECKPOINT] [--epochs E]
                   [--lr LR] [--batch-size B] [--eval-tsv PATH] [--make-live ROUND]
"""
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from collector.cleaning import first_message
from collector.selectors.exports import round_examples
from collector.selectors.rounds import round_get_by_name
from collector.services.training import model_version_name_check, model_version_train, training_examples_from_tsv
from core.exceptions import AccessError, ImportFailed
from mlcore.configs import FineTuneConfig
from mlcore.models.loading import ModelLoadError
from modelhub.progress import ProgressBar


class Command(BaseCommand):
    help = "Fine-tune a multiple-choice model on CODAH-style questions and register it as a model version."

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

    def handle(self, *args, **options) -> None:
        try:
            # Everything that can be wrong with the arguments fails here, before minutes of training.
            config = FineTuneConfig(
                epochs=options["epochs"], learning_rate=options["lr"], batch_size=options["batch_size"],
                threads=settings.STUMPER_TORCH_THREADS,
            )
            model_version_name_check(name=options["name"])
            live_round = round_get_by_name(name=options["make_live"]) if options["make_live"] else None
            # A model trained on a round's questions (or made live in one) is that course's instructors';
            # one trained on a file of the operator's alone is public.
            course_id = live_round.course_id if live_round else None
            if options["tsv"]:
                examples = training_examples_from_tsv(path=options["tsv"])
            else:
                source_round = round_get_by_name(name=options["round_name"])
                examples, course_id = round_examples(round_=source_round), source_round.course_id
            eval_examples = training_examples_from_tsv(path=options["eval_tsv"]) if options["eval_tsv"] else []
            if not examples:
                raise CommandError("There are no questions to train on.")
            self.stdout.write(f"Training {options['name']!r} on {len(examples)} questions "
                              f"({config.epochs} epoch(s), lr {config.learning_rate}, batch {config.batch_size})")
            version = model_version_train(
                name=options["name"], train_examples=examples, base=options["base"], config=config,
                eval_examples=eval_examples, live_round=live_round, progress=ProgressBar(self.stdout),
                course_id=course_id,
            )
        except (AccessError, ModelLoadError) as error:
            raise CommandError(str(getattr(error, "message", error))) from None
        except ImportFailed as error:
            raise CommandError(str(error)) from None
        except ValidationError as error:
            raise CommandError(first_message(error)) from None
        except (ValueError, OSError, UnicodeDecodeError) as error:
            raise CommandError(str(error)) from None
        self._report(version, live_round)

    def _report(self, version, live_round) -> None:
        metrics = version.metrics
        self.stdout.write(f"Saved {version.name} to {version.path} (revision {version.revision})")
        if metrics.get("eval_accuracy") is not None:
            self.stdout.write(f"Eval accuracy: {metrics['eval_accuracy']:.3f} on {metrics['eval_examples']} questions")
        if live_round is not None:
            self.stdout.write(f"{version.name} is now the live model of round {live_round.name}")
