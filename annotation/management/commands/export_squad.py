"""``manage.py export_squad --project NAME --split S PATH``: SQuAD-2.0 JSON in PQuAD's layout."""
import json
import os
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.management.commands._common import project_named
from annotation.models import Split
from annotation.squad_selectors import project_squad_dict


class Command(BaseCommand):
    help = "Write a project's submitted questions (one split, or all) as SQuAD-2.0 JSON ('-' = standard output)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="Output file, or - for standard output")
        parser.add_argument("--project", required=True)
        parser.add_argument("--split", choices=Split.values, help="Default: every split")

    def handle(self, *args, path: str, project: str, split: str | None, **options) -> None:
        data = project_squad_dict(project=project_named(project), split=split)
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
        n = sum(len(p["qas"]) for a in data["data"] for p in a["paragraphs"])
        self.stdout.write(f"Wrote {n} questions in {len(data['data'])} articles to {path}")
