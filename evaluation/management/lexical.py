"""What ``manage.py lexical_bias`` and ``lexical_bias_mc`` share: the test's options, the run and
the report they print (``reweight`` takes ``positive_int`` too). Each command names its files and
its service; ``evaluation/services/lexical.py`` does the work."""
import argparse
import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from mlcore.bias.lexical_io import LabelledFileError


def positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


class LexicalTestCommand(BaseCommand):
    """``--train``, ``--test``, ``--k``, the command's own options (``add_options``: the model's
    answers, ``--stratify``...) and ``--json``; ``handle`` runs ``analyse`` (the command's service)
    and prints the warnings, then JSON or the report."""

    train_help = ""
    test_help = ""
    json_help = "Print JSON"

    def add_options(self, parser: CommandParser) -> None:
        raise NotImplementedError

    def analyse(self, *, train: str, test: str, k: int, **options) -> dict:
        raise NotImplementedError

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--train", required=True, help=self.train_help)
        parser.add_argument("--test", required=True, help=self.test_help)
        parser.add_argument("--k", type=positive_int, default=50, help="Top features per label (default 50)")
        self.add_options(parser)
        parser.add_argument("--json", action="store_true", dest="as_json", help=self.json_help)

    def handle(self, *args, as_json: bool, **options) -> None:
        try:
            result = self.analyse(**options)
        except LabelledFileError as error:
            raise CommandError(str(error)) from None
        for warning in result["warnings"]:
            self.stderr.write(f"Warning: {warning}")
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False) if as_json else lexical_test_text(result))


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
