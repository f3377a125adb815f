"""``manage.py round_stats --round NAME [--json]``: question counts and scoring results of a round."""
import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from collector.presentation.cv_accuracy import FOLD_MEAN_LABEL, POOLED_LABEL
from collector.selectors.rounds import round_get_by_name, round_stats
from core.exceptions import AccessError


class Command(BaseCommand):
    help = "Print a round's question counts per category and how often the live model was fooled."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--round", required=True, dest="round_name", help="Round name")
        parser.add_argument("--json", action="store_true", dest="as_json", help="Print JSON")

    def handle(self, *args, round_name: str, as_json: bool, **options) -> None:
        try:
            stats = round_stats(round_=round_get_by_name(name=round_name))
        except AccessError as error:
            raise CommandError(error.message) from None
        if as_json:
            self.stdout.write(json.dumps(stats, indent=2))
            return
        self.stdout.write(_table(stats))


def _table(stats: dict) -> str:
    rate = stats.get("fooling_rate_live")
    rows = [
        ("Round", stats["round"]),
        ("Questions", stats["questions"]),
        ("Authors", stats.get("authors", "")),
        *((f"  {name}", count) for name, count in stats["categories"].items()),
        ("Live predictions done", stats.get("predicted_live", "")),
        ("Live predictions pending", stats.get("pending_live", "")),
        ("Fooled the live model", stats["fooled_live"]),
        ("Fooling rate", "-" if rate is None else f"{rate:.1%}"),
        ("Scored in cross-validation", stats.get("scored_cv", 0)),
        ("Fooled in cross-validation", f"{stats.get('fooled_cv', 0):g}"),
        (POOLED_LABEL, _percent(stats.get("cv_accuracy_pooled"))),
        (FOLD_MEAN_LABEL, _percent(stats.get("cv_accuracy_mean"))),
        ("Answer-only accuracy", _percent(stats.get("answer_only_accuracy"))),
    ]
    width = max(len(label) for label, _ in rows)
    lines = [f"{label:<{width}}  {value}" for label, value in rows]
    if stats.get("cv_warning"):
        lines.append(f"Warning: {stats['cv_warning']}")
    return "\n".join(lines)


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"
