"""``manage.py ambiguity_retrieval (--project NAME | --passages PATH) --occupations PATH [...] [--json]``."""
import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluation.reports.ambiguity import retrieval_payload, retrieval_text
from evaluation.services.ambiguity import RETRIEVAL_K, AmbiguityInputError, ambiguity_retrieval_files
from mlcore.bias.ambiguity import WIKIPEDIA_FEMALE_SHARE


class Command(BaseCommand):
    help = (
        "Retrieval-ambiguity probe (Mao et al.): retrieve the top k passages for 'Who was a(n) <occupation>?', guess "
        "each passage subject's gender from the title's first name, and test the counts against the share of women "
        "among Wikipedia biographies. BM25 alone loads no model (benchmarks/retrieval_ambiguity.py times it). "
        "Model-heavy steps: --dense embeds every passage with MiniLM, --reader runs a QA model over all k "
        "passages of every question (questions x k passages)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("--project", help="Annotation project whose paragraphs are searched (title = subject)")
        target.add_argument("--passages", help="Article JSON Lines ({\"title\", \"paragraphs\"}) to search instead")
        parser.add_argument("--occupations", required=True, help="UnQover occupation list (activities/occupation_rev1)")
        parser.add_argument("--k", type=int, default=RETRIEVAL_K, help=f"Passages per question (default {RETRIEVAL_K})")
        parser.add_argument("--baseline-female", type=float, default=WIKIPEDIA_FEMALE_SHARE, dest="baseline",
                            help=f"Share of women among biographies (default {WIKIPEDIA_FEMALE_SHARE})")
        parser.add_argument("--dense", action="store_true", help="Dense retrieval with the packaged MiniLM (model-heavy)")
        parser.add_argument("--reader", help="QA model (registered name or folder) reading the passages (model-heavy)")
        parser.add_argument("--names", action="append", default=[],
                            help="Names file instead of gender-guesser ('[subj] female | Mary' or 'Mary,female' lines); "
                                 "repeat for several files")
        parser.add_argument("--include-mostly", action="store_true",
                            help="Count gender-guesser's mostly_male/mostly_female as male/female")
        parser.add_argument("--json", action="store_true", dest="as_json", help="Print JSON instead of a table")

    def handle(self, *args, project: str | None, passages: str | None, occupations: str, k: int, baseline: float,
               dense: bool, reader: str | None, names: list[str], include_mostly: bool, as_json: bool,
               **options) -> None:
        try:
            result = ambiguity_retrieval_files(
                occupations_path=occupations, project=project, passages_path=passages, k=k,
                baseline_female_share=baseline, dense=dense, reader=reader, names=names,
                include_mostly=include_mostly,
            )
        except AmbiguityInputError as error:
            raise CommandError(str(error)) from None
        payload = retrieval_payload(result)
        self.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) if as_json else retrieval_text(payload))
