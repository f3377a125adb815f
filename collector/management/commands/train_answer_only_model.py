"""``manage.py train_answer_only_model --round NAME``: the artifact coach's answer-only model.

Fine-tunes on the round's questions with the prompts blanked, registers the result as
``<round>-answer-only`` and attaches it to the round (retraining replaces the weights).
"""
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from collector.cleaning import first_message
from collector.selectors.rounds import round_get_by_name
from collector.services.coach import round_answer_only_model_train
from core.exceptions import AccessError


class Command(BaseCommand):
    help = "Train the answer-only model the coach asks about drafts of a round."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--round", required=True, dest="round_name", help="Round name")

    def handle(self, *args, round_name: str, **options) -> None:
        try:
            version = round_answer_only_model_train(round_=round_get_by_name(name=round_name))
        except AccessError as error:
            raise CommandError(error.message) from None
        except ValidationError as error:
            raise CommandError(first_message(error)) from None
        self.stdout.write(f"Registered {version.name} ({version.path}) as the answer-only model of round {round_name}.")
