"""``manage.py export_codah --round NAME --format tsv|jsonl [--weights-from RUN_ID] PATH``: write a round's questions."""
import json

from django.core.management.base import BaseCommand, CommandParser

from collector.selectors.exports import round_export_codah_tsv, round_export_records
from collector.selectors.rounds import round_get_by_name
from evaluation.management.exporting import export_write, lookups_refused_as_command_errors
from evaluation.selectors.exports import evaluation_run_weights


class Command(BaseCommand):
    help = "Export a round's questions as CODAH TSV or as JSON lines with their live predictions."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="Output file ('-' for standard output)")
        parser.add_argument("--round", required=True, dest="round_name", help="Round name")
        parser.add_argument("--format", choices=["tsv", "jsonl"], default="tsv", dest="fmt")
        parser.add_argument(
            "--weights-from", type=int, metavar="RUN_ID", dest="weights_from",
            help="A finished evaluation report of this round: add its reweighting weights n·q, one per "
                 "completion (TSV: 4 more columns after the index, in choice order; JSONL: \"weights\")",
        )

    def handle(self, *args, path: str, round_name: str, fmt: str, weights_from: int | None = None,
               **options) -> None:
        with lookups_refused_as_command_errors():
            round_ = round_get_by_name(name=round_name)
            weights = None if weights_from is None else evaluation_run_weights(run_id=weights_from, round_=round_)
        if fmt == "tsv":
            text = round_export_codah_tsv(round_=round_, weights=weights)
            count = text.count("\n")
        else:
            records = round_export_records(round_=round_, weights=weights)
            text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
            count = len(records)
        if path == "-":
            self.stdout.write(text, ending="")
            return
        export_write(path, text)
        with_weights = "" if weights_from is None else f" with the weights of evaluation report {weights_from}"
        self.stdout.write(f"Exported {count} questions from round {round_.name} to {path} ({fmt}){with_weights}")
