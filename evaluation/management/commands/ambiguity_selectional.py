"""``manage.py ambiguity_selectional --questions PATH (--model VERSION | --predictions PATH) [--json]``."""
import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluation.reports.ambiguity import selectional_payload, selectional_text
from evaluation.services.ambiguity import AmbiguityInputError, ambiguity_selectional_files


class Command(BaseCommand):
    help = (
        "Selectional-ambiguity probe (Mao et al.): recall of male and female gold names and the chi-squared test "
        "(Fisher's exact test when an expected count is below 5). Model-heavy step: with --model the QA model is "
        "loaded and answers every question on the CPU. With --predictions no model is loaded."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--questions", required=True, help="JSON Lines questions (format of shared/data/ambiguity)")
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--model", help="Registered question_answering model name, or a checkpoint folder")
        source.add_argument("--predictions", help="JSON object {id: answer} or JSON Lines {\"id\", \"prediction\"}")
        parser.add_argument("--match", choices=["fraction", "any_token"], default="fraction",
                            help="fraction: at least tau of a name's tokens; any_token: one shared token, names split as upstream "
                                 "splits them (a hyphen separates words; Mao et al.'s deq.py)")
        parser.add_argument("--tau", type=float, default=0.5, help="Share of a gold name's tokens needed (default 0.5)")
        parser.add_argument("--json", action="store_true", dest="as_json", help="Print JSON instead of a table")

    def handle(self, *args, questions: str, model: str | None, predictions: str | None, match: str, tau: float,
               as_json: bool, **options) -> None:
        try:
            probe = ambiguity_selectional_files(questions_path=questions, model=model, predictions_path=predictions,
                                                match=match, tau=tau)
        except AmbiguityInputError as error:
            raise CommandError(str(error)) from None
        payload = selectional_payload(probe)
        self.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) if as_json else selectional_text(payload))
