"""``manage.py export_squad --project NAME --split S [--weights-from RUN_ID] PATH``: SQuAD-2.0 JSON in PQuAD's layout."""
import json
import os
import tempfile
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.inputs import first_message
from annotation.models import Split
from annotation.selectors.exports import project_squad_dict
from annotation.selectors.projects import project_by_name
from core.exceptions import AccessError
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
        try:
            found = project_by_name(name=project)
            weights = None if weights_from is None else evaluation_run_weights(run_id=weights_from, project=found)
        except AccessError as error:
            raise CommandError(error.message) from None
        except ValidationError as error:
            raise CommandError(first_message(error)) from None
        data = project_squad_dict(project=found, split=split, weights=weights)
        text = json.dumps(data, ensure_ascii=False)
        if path == "-":
            self.stdout.write(text)
            return
        target = Path(path)
        try:
            # Written beside the target and renamed, so a failure never leaves half a file.
            fd, partial = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(partial, target)
        except OSError as error:
            raise CommandError(f"Cannot write {path}: {error.strerror or error}") from None
        qas = [qa for a in data["data"] for p in a["paragraphs"] for qa in p["qas"]]
        weighed = "" if weights is None else (f"; {sum(qa['weight'] is not None for qa in qas)} with a weight "
                                              f"from evaluation report {weights_from}")
        self.stdout.write(f"Wrote {len(qas)} questions in {len(data['data'])} articles to {path}{weighed}")
