"""``manage.py export_squad --project NAME --split S [--weights-from RUN_ID] PATH``: SQuAD-2.0 JSON in PQuAD's layout."""
import json

from django.core.management.base import BaseCommand, CommandParser

from annotation.models import Split
from annotation.selectors.exports import project_squad_dict
from annotation.selectors.projects import project_by_name
from evaluation.management.exporting import export_write, lookups_refused_as_command_errors
from evaluation.selectors.exports import evaluation_run_weights


class Command(BaseCommand):
    help = "Write a project's submitted questions (one split, or all) as SQuAD-2.0 JSON ('-' = standard output)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="Output file, or - for standard output")
        parser.add_argument("--project", required=True)
        parser.add_argument("--split", choices=Split.values, help="Default: every split")
        parser.add_argument(
            "--weights-from", type=int, metavar="RUN_ID", dest="weights_from",
            help="A finished evaluation report of this project: give every qa its reweighting weight n·q "
                 '("weight", null for questions the report did not weigh)',
        )

    def handle(self, *args, path: str, project: str, split: str | None, weights_from: int | None = None,
               **options) -> None:
        with lookups_refused_as_command_errors():
            found = project_by_name(name=project)
            weights = None if weights_from is None else evaluation_run_weights(run_id=weights_from, project=found)
        data = project_squad_dict(project=found, split=split, weights=weights)
        text = json.dumps(data, ensure_ascii=False)
        if path == "-":
            self.stdout.write(text)
            return
        export_write(path, text)
        qas = [qa for a in data["data"] for p in a["paragraphs"] for qa in p["qas"]]
        weighed = "" if weights is None else (f"; {sum(qa['weight'] is not None for qa in qas)} with a weight "
                                              f"from evaluation report {weights_from}")
        self.stdout.write(f"Wrote {len(qas)} questions in {len(data['data'])} articles to {path}{weighed}")
