"""``manage.py import_codah PATH --round NAME [--author USERNAME] [--source-dataset ID [--source-license ID]]``:
load CODAH TSV questions, recording where they come from (default: CODAH, ODC-By) for the round's release."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from collector.selectors.rounds import round_get_by_name, user_get_by_username
from collector.services.imports import CODAH_SOURCE, codah_import
from core.exceptions import AccessError, ImportFailed


class Command(BaseCommand):
    help = "Import questions from a CODAH TSV file into a round: every row or none."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="CODAH TSV file (7 tab-separated fields, no header)")
        parser.add_argument("--round", required=True, dest="round_name", help="Round name")
        parser.add_argument("--author", help="Username stored as author (default: the course owner)")
        parser.add_argument(
            "--allow-duplicate-choices", action="store_true",
            help="Accept rows that repeat a completion (three rows of the public CODAH release do)",
        )
        parser.add_argument(
            "--source-dataset", default=CODAH_SOURCE,
            help="Hub id of the dataset the file comes from, recorded for the round's release "
                 f"(default {CODAH_SOURCE}; '' records nothing)",
        )
        parser.add_argument("--source-license", default="",
                            help="Hub license id of that dataset (known for codah, squad_v2, pquad)")

    def handle(self, *args, path: Path, round_name: str, author: str | None, allow_duplicate_choices: bool,
               source_dataset: str, source_license: str, **options) -> None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {path}: {error}") from None
        try:
            round_ = round_get_by_name(name=round_name)
            user = user_get_by_username(username=author) if author else round_.course.owner
            questions = codah_import(
                round_=round_, text=text, author=user, allow_duplicate_choices=allow_duplicate_choices,
                source_dataset=source_dataset, source_license=source_license,
            )
        except AccessError as error:
            raise CommandError(error.message) from None
        except ImportFailed as error:
            raise CommandError(f"{path}: {error}") from None
        self.stdout.write(f"Imported {len(questions)} questions into round {round_.name}")
