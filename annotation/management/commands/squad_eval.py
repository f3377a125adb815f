"""``manage.py squad_eval GOLD PREDICTIONS [--lang en|fa] [--na-prob FILE --na-threshold T] [--json]``.

SQuAD 2.0 / PQuAD evaluation as SPEC-bias §6 defines it (``mlcore.stats.squad_metrics``): EM, F1,
HasAns/NoAns splits and AvNA in percent. Predictions map question id to answer text, ``""``
meaning no answer.
"""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.management.commands._common import read_json
from mlcore.stats.squad_metrics import parse_squad_json, squad_evaluate

ORDER = ("exact", "f1", "total", "HasAns_exact", "HasAns_f1", "HasAns_total", "NoAns_exact", "NoAns_f1",
         "NoAns_total", "avna")


def _string_map(obj: object, path: Path, kind: type, what: str) -> dict:
    if not isinstance(obj, dict):
        raise CommandError(f"{path}: expected a JSON object mapping question ids to {what}.")
    for key, value in obj.items():
        if kind is float:
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        else:
            ok = isinstance(value, kind)
        if not ok:
            raise CommandError(f"{path}: the value for question {key!r} is not {what}.")
    return {k: float(v) for k, v in obj.items()} if kind is float else obj


class Command(BaseCommand):
    help = "Score predictions against SQuAD-2.0 / PQuAD gold (EM, F1, HasAns/NoAns, AvNA)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("gold", type=Path, help="SQuAD-2.0-layout gold file")
        parser.add_argument("predictions", type=Path, help='JSON object {question id: answer text ("" = no answer)}')
        parser.add_argument("--lang", choices=("en", "fa"), default="en",
                            help="Answer normaliser: en = official SQuAD script, fa = Persian (SPEC §6.2)")
        parser.add_argument("--na-prob", type=Path, help="JSON object {question id: no-answer probability}")
        parser.add_argument("--na-threshold", type=float, default=1.0,
                            help="Questions with no-answer probability above this count as answered 'no answer'")
        parser.add_argument("--json", action="store_true", help="Print the scores as one JSON object")

    def handle(self, *args, gold: Path, predictions: Path, lang: str, na_prob: Path | None, na_threshold: float,
               **options) -> None:
        try:
            dataset = parse_squad_json(read_json(gold, "gold file"))
        except ValueError as error:
            raise CommandError(f"{gold}: {error}") from None
        preds = _string_map(read_json(predictions, "predictions"), predictions, str, "a string")
        probs = _string_map(read_json(na_prob, "no-answer probabilities"), na_prob, float, "a number") if na_prob else None
        try:
            result = squad_evaluate(dataset, preds, na_probs=probs, na_prob_thresh=na_threshold, normalizer=lang)
        except ValueError as error:
            raise CommandError(str(error)) from None
        scores = {**result.as_dict(), "avna": result.avna}
        if options["json"]:
            self.stdout.write(json.dumps({k: scores[k] for k in ORDER if k in scores}))
        else:
            for key in ORDER:
                if key in scores:
                    value = scores[key]
                    self.stdout.write(f"{key:<14} {value:.6f}" if isinstance(value, float) else f"{key:<14} {value}")
        if result.n_missing:
            self.stderr.write(f"warning: {result.n_missing} gold question(s) had no prediction and were scored as no answer")
