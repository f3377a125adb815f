"""``manage.py import_squad PATH --project NAME --split S``: a SQuAD-2.0 / PQuAD file into a project."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.management.commands._common import project_named, read_json
from annotation.models import Split
from annotation.services.imports import squad_import
from core.exceptions import ImportFailed


class Command(BaseCommand):
    help = ("Import SQuAD-2.0 / PQuAD JSON (ids, questions, every answer, is_impossible) into one split of a "
            "project, for second-pass work and evaluation. All or nothing.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path)
        parser.add_argument("--project", required=True, help="Project name")
        parser.add_argument("--split", required=True, choices=Split.values)
        parser.add_argument("--source-dataset", default="",
                            help="Hub id of the dataset the file comes from (squad_v2, pquad, ...), recorded for the "
                                 "project's release; nothing is recorded without it, and the release asks")
        parser.add_argument("--source-license", default="",
                            help="Hub license id of that dataset (known for codah, squad_v2, pquad)")

    def handle(self, *args, path: Path, project: str, split: str, source_dataset: str, source_license: str,
               **options) -> None:
        target = project_named(project)
        data = read_json(path)
        try:
            result = squad_import(project=target, data=data, split=split, source_dataset=source_dataset,
                                  source_license=source_license)
        except ImportFailed as error:
            raise CommandError(f"{path}: {error}") from None
        for warning in result.warnings[:20]:
            self.stdout.write(f"warning: {warning}")
        if len(result.warnings) > 20:
            self.stdout.write(f"... and {len(result.warnings) - 20} more warnings")
        self.stdout.write(
            f"Imported {result.articles} articles, {result.paragraphs} paragraphs, {result.questions} questions "
            f"({result.unanswerable} unanswerable) and {result.answers} answers into {target.name} ({split})"
        )
