"""``manage.py find_duplicates --round NAME [--threshold T] [--json]``: near-duplicate questions.

Every pair with at least one question in the round whose word sets overlap at least ``T``
(Jaccard; default ``STUMPER_DUPLICATE_THRESHOLD``); the other question may be in another round
of the course or imported. JSON: ``{"pairs": [{"a": {"id", "prompt", ...}, "b": {...},
"similarity": float}]}``, most similar first.
"""
import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from collector.selectors.duplicates import round_duplicate_pairs
from collector.selectors.rounds import round_get_by_name
from core.exceptions import AccessError


def _threshold(value: str) -> float:
    number = float(value)
    if not 0.0 < number <= 1.0:
        raise ValueError(value)
    return number


class Command(BaseCommand):
    help = "List near-duplicate question pairs of a round (against its course and imported data sets)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--round", required=True, dest="round_name", help="Round name")
        parser.add_argument("--threshold", type=_threshold, default=None,
                            help="Smallest Jaccard similarity of the questions' word sets, in (0, 1]")
        parser.add_argument("--json", action="store_true", dest="as_json", help="Print JSON")

    def handle(self, *args, round_name: str, threshold: float | None, as_json: bool, **options) -> None:
        try:
            round_ = round_get_by_name(name=round_name)
        except AccessError as error:
            raise CommandError(error.message) from None
        pairs = round_duplicate_pairs(round_=round_, threshold=threshold)
        if as_json:
            self.stdout.write(json.dumps({"pairs": pairs}, indent=2, ensure_ascii=False))
            return
        if not pairs:
            self.stdout.write(f"No near-duplicates in round {round_.name}.")
            return
        for pair in pairs:
            self.stdout.write(f"{pair['similarity']:.2f}  #{pair['a']['id']} {pair['a']['prompt'][:60]}")
            self.stdout.write(f"      #{pair['b']['id']} {pair['b']['prompt'][:60]}")
        self.stdout.write(f"{len(pairs)} pair(s).")
