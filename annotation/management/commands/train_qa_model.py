"""``manage.py train_qa_model PATH.json --name VERSION``: fine-tune an extractive QA model and register it.

    train_qa_model PATH.json --name VERSION [--base CHECKPOINT] [--epochs E] [--lr LR] [--batch-size B]
                   [--max-length L] [--eval PATH.json] [--lang en|fa] [--project NAME] [--limit N]
"""
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.inputs import first_message
from annotation.management.commands._common import project_named, read_json
from annotation.services.qa_training import qa_model_name_check, qa_model_train
from mlcore.models.loading import ModelLoadError
from mlcore.stats.squad_metrics import parse_squad_json
from modelhub.progress import ProgressBar


def _questions(path: Path, limit: int | None) -> tuple:
    try:
        questions = parse_squad_json(read_json(path)).questions
    except ValueError as error:
        raise CommandError(f"{path}: {error}") from None
    if not questions:
        raise CommandError(f"{path} has no questions.")
    return questions[:limit] if limit else questions


class Command(BaseCommand):
    help = ("Fine-tune AutoModelForQuestionAnswering (default: the packaged MiniLM weights) on SQuAD-2.0-format "
            "data and register it as a question-answering model version.")

    def add_arguments(self, parser: CommandParser) -> None:
        from mlcore.models.qa_finetune import QAFineTuneConfig

        defaults = QAFineTuneConfig()
        parser.add_argument("path", type=Path, help="Training data, SQuAD-2.0 / PQuAD JSON")
        parser.add_argument("--name", required=True, help="Name of the new model version")
        parser.add_argument("--base", help="Starting checkpoint: folder, registered version name or hub id "
                                           "(default: STUMPER_BASE_CHECKPOINT)")
        parser.add_argument("--epochs", type=int, default=defaults.epochs)
        parser.add_argument("--lr", type=float, default=defaults.learning_rate)
        parser.add_argument("--batch-size", type=int, default=defaults.batch_size)
        parser.add_argument("--max-length", type=int, default=defaults.max_length)
        parser.add_argument("--doc-stride", type=int, default=defaults.doc_stride)
        parser.add_argument("--eval", type=Path, help="Held-out SQuAD JSON to report EM/F1 on")
        parser.add_argument("--lang", choices=("en", "fa"), default="en", help="Normaliser for the evaluation")
        parser.add_argument("--project", help="Make the new version this annotation project's model in the loop")
        parser.add_argument("--limit", type=int, help="Train on the first N questions only")

    def handle(self, *args, **options) -> None:
        from mlcore.models.qa_finetune import QAFineTuneConfig  # imports torch and transformers: only when training

        try:
            # Everything that can be wrong with the arguments fails here, before minutes of training.
            config = QAFineTuneConfig(epochs=options["epochs"], learning_rate=options["lr"],
                                      batch_size=options["batch_size"], max_length=options["max_length"],
                                      doc_stride=options["doc_stride"], threads=settings.STUMPER_TORCH_THREADS)
            qa_model_name_check(name=options["name"])
            project = project_named(options["project"]) if options["project"] else None
            questions = _questions(options["path"], options["limit"])
            eval_questions = _questions(options["eval"], None) if options["eval"] else ()
            self.stdout.write(f"Training {options['name']!r} on {len(questions)} questions "
                              f"({config.epochs} epoch(s), lr {config.learning_rate}, batch {config.batch_size})")
            version = qa_model_train(name=options["name"], questions=questions, base=options["base"], config=config,
                                     eval_questions=eval_questions, language=options["lang"], project=project,
                                     progress=ProgressBar(self.stdout))
        except ModelLoadError as error:
            raise CommandError(str(error)) from None
        except ValidationError as error:
            raise CommandError(first_message(error)) from None
        except (ValueError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Saved {version.name} to {version.path} (revision {version.revision})")
        if "eval" in version.metrics:
            scores = version.metrics["eval"]
            self.stdout.write(f"Eval: EM {scores['exact']:.2f}, F1 {scores['f1']:.2f} on {scores['total']} questions")
        if project is not None:
            self.stdout.write(f"{version.name} is now the model in the loop of project {project.name}")
