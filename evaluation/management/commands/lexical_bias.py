"""``manage.py lexical_bias --train TRAIN.tsv --test TEST.tsv --predictions PRED.txt [--k 50] [--stratify none|gold] [--json]``.

Top-k lexical features per label of the training file (z-scores, stop words excluded) and the
exact permutation test of one model's predictions on the test file (SPEC-bias §1-2). Files:
TSV with a header row naming ``text_a``, ``text_b`` (may be empty), ``label``; predictions one
label per line in test-file order. ``--stratify none`` (default) is the paper's test, for
replication; ``--stratify gold`` compares U and N within each gold label (SPEC §2.5). A warning
(stderr, and ``warnings`` in ``--json``) says when accuracy differs between gold labels, which
makes the unstratified test miscalibrated.
"""
from django.core.management.base import CommandParser

from evaluation.management.lexical import LexicalTestCommand
from evaluation.services.lexical import lexical_bias_files


class Command(LexicalTestCommand):
    help = "Lexical artifacts of a labelled TSV and the usual/unusual permutation test of a model's predictions."
    train_help = "Training TSV (header: text_a, text_b, label)"
    test_help = "Evaluation TSV, same columns"

    def add_options(self, parser: CommandParser) -> None:
        parser.add_argument("--predictions", required=True, help="One predicted label per line, in test-file order")
        parser.add_argument("--p0", choices=["uniform", "prior"], default="uniform", help="Null of the z-score")
        parser.add_argument("--labels", help="Declared label set in order, comma-separated (default: sorted labels of the training file)")
        parser.add_argument("--stratify", choices=["none", "gold"], default="none",
                            help="none: the paper's test (default, for replication); gold: compare U and N within "
                                 "each gold label (SPEC §2.5)")

    def analyse(self, *, train, test, k, predictions, p0, labels, stratify, **options) -> dict:
        return lexical_bias_files(train=train, test=test, predictions=predictions, k=k, p0=p0, labels=labels,
                                  stratify=stratify)
