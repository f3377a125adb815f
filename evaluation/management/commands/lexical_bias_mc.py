"""``manage.py lexical_bias_mc --train CODAH.tsv --test CODAH.tsv --picks PICKS.txt [--k 50] [--stratify gold|none] [--json]``.

The lexical-artifact test of a forced-choice model on CODAH-format files, exactly as the round
report builds it: each completion is an instance labelled ``correct``/``incorrect`` with features
from its text; the model "predicts" ``correct`` for the completion it picked. PICKS holds the
chosen answer index (0-3) of every test question, one per line. ``--stratify gold`` (default)
compares U and N within each gold label (SPEC §2.5), because a forced-choice model is right on
~75% of the incorrect completions and ~25% of the correct ones whatever the words.
"""
from django.core.management.base import CommandParser

from evaluation.management.lexical import LexicalTestCommand
from evaluation.services.lexical import lexical_bias_mc_files


class Command(LexicalTestCommand):
    help = "Lexical-artifact permutation test of a multiple-choice model's picks on CODAH TSV files."
    train_help = "CODAH TSV (7 columns, no header) for the statistics"
    test_help = "CODAH TSV the model answered"
    json_help = "Print one JSON document"

    def add_options(self, parser: CommandParser) -> None:
        parser.add_argument("--picks", required=True, help="The model's answer index (0-3) per test question, one per line")
        parser.add_argument("--stratify", choices=["gold", "none"], default="gold",
                            help="gold (default): compare U and N within each gold label (SPEC §2.5); none: the "
                                 "paper's unstratified test")

    def analyse(self, *, train, test, k, picks, stratify, **options) -> dict:
        return lexical_bias_mc_files(train=train, test=test, picks=picks, k=k, stratify=stratify)
