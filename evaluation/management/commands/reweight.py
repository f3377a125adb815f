"""``manage.py reweight --train TRAIN.tsv [--min-count 100] [--weights-out PATH] [--json]``.

Learns instance weights that balance the labels of every unigram in at least ``--min-count``
training instances (SPEC-bias §3) and prints Err/Err_marg before and after, the effective sample
size and the bigram check. ``--weights-out`` writes one weight ``n·q_i`` (mean 1) per line, in
training-file order, for weighted training.
"""
import json
import sys

from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluation.management.lexical import positive_int
from evaluation.services.lexical import reweight_files
from mlcore.bias.lexical_io import LabelledFileError


class Command(BaseCommand):
    help = "Reweight a labelled TSV so frequent unigrams stop predicting the label (Serrano et al. 2023 §5.1)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--train", required=True, help="Training TSV (header: text_a, text_b, label)")
        parser.add_argument("--min-count", type=positive_int, default=100, help="Minimum instances per feature (default 100)")
        parser.add_argument("--max-steps", type=int, default=3000, help="Adam steps (default 3000)")
        parser.add_argument("--seed", type=int, default=0, help="Seed of the 200-bigram sample (default 0)")
        parser.add_argument("--labels", help="Declared label set in order, comma-separated")
        parser.add_argument("--weights-out", help="Write the weights here, one per line in training-file order")
        parser.add_argument("--json", action="store_true", dest="as_json", help="Print JSON")

    def handle(self, *args, train, min_count, max_steps, seed, labels, weights_out, as_json, **options) -> None:
        if max_steps < 0:
            raise CommandError("--max-steps must be 0 or more.")
        try:
            result = reweight_files(train=train, min_count=min_count, max_steps=max_steps, seed=seed, labels=labels,
                                    weights_out=weights_out, progress=self._progress if not as_json else None)
        except LabelledFileError as error:
            raise CommandError(str(error)) from None
        except OSError as error:
            raise CommandError(f"Cannot write the weights to {weights_out}: {error.strerror or error}") from None
        if not as_json:
            sys.stderr.write("\n")
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False) if as_json else _text(result))

    def _progress(self, step: int, total: int) -> None:
        sys.stderr.write(f"\rAdam step {step}/{total}")


def _number(value) -> str:
    return "-" if value is None else f"{value:.6f}"


def _text(result: dict) -> str:
    dropped = ", ".join(result["features_dropped"][:20]) or "none"
    return "\n".join([
        f"{result['n_train']} training instances; labels {', '.join(result['label_set'])}",
        f"Features (count >= {result['min_count']}, seen with every label): {result['features_used']}; dropped: {dropped}",
        f"Err       {_number(result['err_initial'])} -> {_number(result['err_final'])}",
        f"Err_marg  {_number(result['err_marg_initial'])} -> {_number(result['err_marg_final'])}",
        f"Adam steps {result['n_steps']}; effective sample size {_number(result['ess'])}; largest weight {_number(result['max_weight'])}",
        f"Bigram check: mean label balance {_number(result['bigram_lb_uniform'])} -> {_number(result['bigram_lb_q'])}"
        f" over {result['bigram_sample_size']} of {result['bigram_eligible']} bigrams"
        + (" (worse after reweighting)" if result["bigram_worsened"] else ""),
        *([f"Weights written to {result['weights_out']}"] if "weights_out" in result else []),
    ])
