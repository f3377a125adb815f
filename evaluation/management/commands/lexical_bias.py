"""``manage.py lexical_bias --train TRAIN.tsv --test TEST.tsv --predictions PRED.txt [--k 50] [--stratify none|gold] [--json]``.

Top-k lexical features per label of the training file (z-scores, stop words excluded) and the
exact permutation test of one model's predictions on the test file (SPEC-bias §1-2). Files:
TSV with a header row naming ``text_a``, ``text_b`` (may be empty), ``label``; predictions one
label per line in test-file order. ``--stratify none`` (default) is the paper's test, for
replication; ``--stratify gold`` compares U and N within each gold label (SPEC §2.5). A warning
(stderr, and ``warnings`` in ``--json``) says when accuracy differs between gold labels, which
makes the unstratified test miscalibrated.
"""
import argparse
import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluation.services.lexical import lexical_bias_files
from mlcore.bias.lexical_io import LabelledFileError


def positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


class Command(BaseCommand):
    help = "Lexical artifacts of a labelled TSV and the usual/unusual permutation test of a model's predictions."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--train", required=True, help="Training TSV (header: text_a, text_b, label)")
        parser.add_argument("--test", required=True, help="Evaluation TSV, same columns")
        parser.add_argument("--predictions", required=True, help="One predicted label per line, in test-file order")
        parser.add_argument("--k", type=positive_int, default=50, help="Top features per label (default 50)")
        parser.add_argument("--p0", choices=["uniform", "prior"], default="uniform", help="Null of the z-score")
        parser.add_argument("--labels", help="Declared label set in order, comma-separated (default: sorted labels of the training file)")
        parser.add_argument("--stratify", choices=["none", "gold"], default="none",
                            help="none: the paper's test (default, for replication); gold: compare U and N within "
                                 "each gold label (SPEC §2.5)")
        parser.add_argument("--json", action="store_true", dest="as_json", help="Print JSON")

    def handle(self, *args, train, test, predictions, k, p0, labels, stratify, as_json, **options) -> None:
        try:
            result = lexical_bias_files(train=train, test=test, predictions=predictions, k=k, p0=p0, labels=labels,
                                        stratify=stratify)
        except LabelledFileError as error:
            raise CommandError(str(error)) from None
        write_warnings(self.stderr, result["warnings"])
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False) if as_json else lexical_test_text(result))


def write_warnings(stream, warnings: list[str]) -> None:
    for warning in warnings:
        stream.write(f"Warning: {warning}")


def lexical_test_text(result: dict) -> str:
    """The human-readable report of ``lexical_bias`` and ``lexical_bias_mc``."""
    lines = [f"{result['n_train']} training and {result['n_test']} test instances; labels {', '.join(result['label_set'])}",
             f"Top {result['k']} features per label (z against p0={result['p0']}):"]
    for label, features in result["top_features"].items():
        shown = ", ".join(f"{f['feature']} ({f['z']:.2f}, {f['count']}/{f['n']})" for f in features[:15])
        more = f", … {len(features) - 15} more" if len(features) > 15 else ""
        lines.append(f"  {label}: {shown}{more}")
    acc_u = "-" if result["acc_U"] is None else f"{result['acc_U']:.4f}"
    acc_n = "-" if result["acc_N"] is None else f"{result['acc_N']:.4f}"
    strat, plain = result["stratified_test"], result["unstratified_test"]
    lines += [
        f"Usual-label set U: {result['n_U']} instances, {result['a']} correct (accuracy {acc_u})",
        f"Unusual-label set N: {result['n_N']} instances, {result['b']} correct (accuracy {acc_n}); overlap {result['n_overlap']}",
        "Per gold label (the stratified test compares U and N only within each row):",
        *(f"  {s['label']}: n_U {s['n_U']}, n_N {s['n_N']}, a {s['a']} (expected {s['expected_a']:.2f}), b {s['b']}"
          for s in result["strata"]),
    ]
    tests = [("Stratified by gold label (exact test, SPEC §2.5)", strat),
             ("Unstratified (Serrano et al. §3, assumes equal chance per slot)", plain)]
    if not result["stratified"]:
        tests.reverse()
    for index, (name, test) in enumerate(tests):
        lead = "Chosen test" if index == 0 else "For comparison"
        lines.append(f"{lead}: {name}: p = {test['pvalue_display']} (log10 p = {test['log10_pvalue']:.6f})"
                     + (" [degenerate: a set is empty or all/no predictions are correct]" if test["degenerate"] else ""))
    return "\n".join(lines)
