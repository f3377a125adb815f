"""``manage.py import_articles PATH --project NAME``: Wikipedia articles (JSON Lines) -> annotation tasks."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.management.commands._common import project_named
from annotation.services.imports import articles_import
from core.exceptions import ImportFailed


class Command(BaseCommand):
    help = ("Rank articles by PageRank over their links and turn the top articles' introduction and first "
            "paragraphs of the right length into annotation tasks (PQuAD's recipe). All or nothing.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help='JSON Lines: {"title", "paragraphs": [...], "links": [...], '
                                                    '"has_infobox"?} per line')
        parser.add_argument("--project", required=True, help="Project name")
        parser.add_argument("--damping", type=float, help="PageRank damping (default: the project's, 0.4)")
        parser.add_argument("--top", type=int, help="Import only the N highest-ranked articles")
        parser.add_argument("--paragraphs", type=int, help="Paragraphs after the introduction per article (default 20)")
        parser.add_argument("--min-chars", type=int, help="Shortest paragraph kept (default 500)")
        parser.add_argument("--max-chars", type=int, help="Longest paragraph kept (default 1100)")
        parser.add_argument("--require-infobox", action="store_true",
                            help="Skip articles whose has_infobox is not true (PQuAD kept only those)")

    def handle(self, *args, path: Path, project: str, **options) -> None:
        target = project_named(project)
        try:
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {path}: {error}") from None
        try:
            result = articles_import(
                project=target, lines=lines, damping=options["damping"], top=options["top"],
                per_article=options["paragraphs"], min_chars=options["min_chars"], max_chars=options["max_chars"],
                require_infobox=options["require_infobox"],
            )
        except ImportFailed as error:
            raise CommandError(f"{path}: {error}") from None
        splits = ", ".join(f"{n} {split}" for split, n in result.splits.items())
        self.stdout.write(f"Imported {result.articles} articles ({splits}) with {result.paragraphs} paragraphs "
                          f"into {target.name}")
        if result.skipped_no_paragraphs or result.skipped_infobox:
            self.stdout.write(f"Skipped {result.skipped_no_paragraphs} article(s) without a paragraph of the right "
                              f"length and {result.skipped_infobox} without an infobox")
