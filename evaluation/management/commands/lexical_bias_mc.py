"""``manage.py lexical_bias_mc --train CODAH.tsv --test CODAH.tsv --picks PICKS.txt [--k 50] [--stratify gold|none] [--json]``.

The lexical-artifact test of a forced-choice model on CODAH-format files, exactly as the round
report builds it: each completion is an instance labelled ``correct``/``incorrect`` with features
from its text; the model "predicts" ``correct`` for the completion it picked. PICKS holds the
chosen answer index (0-3) of every test question, one per line. ``--stratify gold`` (default)
compares U and N within each gold label (SPEC §2.5), because a forced-choice model is right on
~75% of the incorrect completions and ~25% of the correct ones whatever the words.
"""
import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluation.management.commands.lexical_bias import lexical_test_text, positive_int, write_warnings
from evaluation.services.lexical import lexical_bias_mc_files
from mlcore.bias.lexical_io import LabelledFileError


class Command(BaseCommand):
    help = "Lexical-artifact permutation test of a multiple-choice model's picks on CODAH TSV files."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--train", required=True, help="CODAH TSV (7 columns, no header) for the statistics")
        parser.add_argument("--test", required=True, help="CODAH TSV the model answered")
        parser.add_argument("--picks", required=True, help="The model's answer index (0-3) per test question, one per line")
        parser.add_argument("--k", type=positive_int, default=50, help="Top features per label (default 50)")
        parser.add_argument("--stratify", choices=["gold", "none"], default="gold",
                            help="gold (default): compare U and N within each gold label (SPEC §2.5); none: the "
                                 "paper's unstratified test")
        parser.add_argument("--json", action="store_true", dest="as_json", help="Print one JSON document")

    def handle(self, *args, train, test, picks, k, stratify, as_json, **options) -> None:
        try:
            result = lexical_bias_mc_files(train=train, test=test, picks=picks, k=k, stratify=stratify)
        except LabelledFileError as error:
            raise CommandError(str(error)) from None
        write_warnings(self.stderr, result["warnings"])
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False) if as_json else lexical_test_text(result))
