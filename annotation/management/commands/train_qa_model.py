"""``manage.py train_qa_model PATH.json --name VERSION``: fine-tune an extractive QA model and register it.

    train_qa_model PATH.json --name VERSION [--base CHECKPOINT] [--epochs E] [--lr LR] [--batch-size B]
                   [--max-length L] [--eval PATH.json] [--lang en|fa] [--project NAME] [--limit N] [--no-wait]

The command checks its arguments and files, then starts a ``QATrainingJob`` that a worker runs
(``annotation.services.qa_models``); by default it follows that job until it ends (progress on
stderr, the result on stdout, a non-zero exit if it fails). Ctrl+C stops the following, not the job.
With ``--no-wait`` it only starts the job. The files must be readable by the worker.
"""
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.inputs import first_message
from annotation.management.commands._common import project_named
from annotation.models import QATrainingJob
from annotation.services.qa_models import qa_training_command_start
from core.management.follow import ProgressLine, job_follow_done
from modelhub.progress import training_job_display


def progress_show(job: QATrainingJob, line: ProgressLine) -> None:
    """The job's progress as its project page words it; piped, a new line per stage and tenth of the steps."""
    shown, progress = training_job_display(job), job.progress or {}
    line.update(shown["percent"], shown["progress"], key=(job.status, progress.get("stage"), int(shown["percent"] // 10)))


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
        parser.add_argument("--no-wait", action="store_true", help="Only start the training job; do not follow it")

    def handle(self, *args, **options) -> None:
        try:
            # Everything that can be wrong with the arguments fails here, before a worker spends minutes on it.
            project = project_named(options["project"]) if options["project"] else None
            job = qa_training_command_start(
                name=options["name"], path=options["path"], eval_path=options["eval"], base=options["base"],
                language=options["lang"], project=project, limit=options["limit"], epochs=options["epochs"],
                learning_rate=options["lr"], batch_size=options["batch_size"], max_length=options["max_length"],
                doc_stride=options["doc_stride"])
        except ValidationError as error:
            raise CommandError(first_message(error)) from None
        except (ValueError, OSError) as error:
            raise CommandError(str(error)) from None
        settings_ = job.options
        self.stdout.write(f"Training {job.name!r} on {settings_['questions']} questions ({settings_['epochs']} "
                          f"epoch(s), lr {settings_['learning_rate']}, batch {settings_['batch_size']}): "
                          f"training job {job.pk}")
        if options["no_wait"]:
            self.stdout.write(f"Queued training job {job.pk}; a worker will run it")
            return
        ended = job_follow_done(QATrainingJob, job.pk, stderr=self.stderr, show=progress_show)
        version = ended.model_version
        self.stdout.write(f"Saved {version.name} to {version.path} (revision {version.revision})")
        if "eval" in version.metrics:
            scores = version.metrics["eval"]
            self.stdout.write(f"Eval: EM {scores['exact']:.2f}, F1 {scores['f1']:.2f} on {scores['total']} questions")
        if project is not None:
            self.stdout.write(f"{version.name} is now the model in the loop of project {project.name}")
