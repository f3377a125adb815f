"""``manage.py export_codah --round NAME --format tsv|jsonl PATH``: write a round's questions."""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from collector import selectors
from collector.exceptions import AccessError


class Command(BaseCommand):
    help = "Export a round's questions as CODAH TSV or as JSON lines with their live predictions."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="Output file ('-' for standard output)")
        parser.add_argument("--round", required=True, dest="round_name", help="Round name")
        parser.add_argument("--format", choices=["tsv", "jsonl"], default="tsv", dest="fmt")

    def handle(self, *args, path: str, round_name: str, fmt: str, **options) -> None:
        try:
            round_ = selectors.round_get_by_name(name=round_name)
        except AccessError as error:
            raise CommandError(error.message) from None
        if fmt == "tsv":
            text = selectors.round_export_codah_tsv(round_=round_)
            count = text.count("\n")
        else:
            records = selectors.round_export_records(round_=round_)
            text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
            count = len(records)
        if path == "-":
            self.stdout.write(text, ending="")
            return
        try:
            Path(path).write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"Cannot write {path}: {error}") from None
        self.stdout.write(f"Exported {count} questions from round {round_.name} to {path} ({fmt})")
