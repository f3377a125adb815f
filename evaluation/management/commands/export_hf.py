"""``manage.py export_hf (--round NAME | --project NAME) OUT_DIR [options] [--push-to-hub OWNER/NAME] [--json]``.

Writes a folder ``datasets.load_dataset(OUT_DIR)`` loads: Parquet per split and a README.md
dataset card (docs/release.md). One call to the release service, one to the upload if asked.
"""
import json
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.selectors.projects import project_by_name
from collector.cleaning import first_message
from collector.selectors.rounds import round_get_by_name
from core.exceptions import AccessError
from evaluation.selectors.releases import ReleaseError
from evaluation.services.releases import (
    SPLIT_METHODS,
    STATUSES,
    release_export,
    release_options_clean,
    release_push_to_hub,
)
from mlcore.data.release.card import FIELDS


class Command(BaseCommand):
    help = "Write a round's or project's questions as a Hugging Face dataset folder (Parquet + dataset card)."

    def add_arguments(self, parser: CommandParser) -> None:
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("--round", dest="round_name", help="Round name (multiple choice, CODAH-style)")
        target.add_argument("--project", dest="project_name", help="Annotation project name (spans, squad_v2)")
        parser.add_argument("out_dir", type=Path, help="Folder to create (must not exist or be empty)")
        parser.add_argument("--status", choices=STATUSES, default="accepted",
                            help="accepted (default) or all: every question not rejected")
        parser.add_argument("--split-by", choices=SPLIT_METHODS, dest="split_by",
                            help="author (no author in two splits; a round's default), folds (the stored "
                                 "cross-validation folds), article (a project's default)")
        parser.add_argument("--fields", default="", help=f"Comma-separated extra fields: {','.join(FIELDS)}")
        parser.add_argument("--license", help="A Hugging Face Hub license id (default: the one recorded when the "
                                               "questions were imported; cc-by-sa-4.0 for questions written in Stumper)")
        parser.add_argument("--source-dataset", dest="source_dataset",
                            help="Hub id of the dataset imported questions come from, when the import did not record it")
        parser.add_argument("--no-pseudonymise", action="store_false", dest="pseudonymise",
                            help="Release the authors' user names instead of author-N pseudonyms")
        parser.add_argument("--seed", type=int, default=0, help="Seed of the author split")
        parser.add_argument("--overwrite", action="store_true", help="Replace OUT_DIR if it is not empty")
        parser.add_argument("--push-to-hub", dest="push_to_hub", metavar="OWNER/NAME",
                            help="Then upload the folder as this dataset repository (token: HF_TOKEN)")
        parser.add_argument("--public", action="store_true", help="Create the hub repository public (default private)")
        parser.add_argument("--json", action="store_true", dest="as_json", help="Print one JSON document")

    def handle(self, *args, round_name=None, project_name=None, out_dir: Path, status: str, split_by, fields: str,
               license: str | None, pseudonymise: bool, seed: int, overwrite: bool, push_to_hub, public: bool,
               as_json: bool, source_dataset: str | None = None, **options) -> None:
        try:
            release_options = release_options_clean(status=status, split_by=split_by, fields=fields,
                                                    pseudonymise=pseudonymise, license=license, seed=seed,
                                                    source_dataset=source_dataset)
            round_ = round_get_by_name(name=round_name) if round_name else None
            project = project_by_name(name=project_name) if project_name else None
            result = release_export(out_dir=out_dir, options=release_options, round_=round_, project=project,
                                    overwrite=overwrite)
            document = result.as_dict()
            if push_to_hub:
                document["hub_url"] = release_push_to_hub(folder=result.folder, repo_id=push_to_hub, private=not public)
        except ReleaseError as error:
            raise CommandError(error.worded(lambda option, value: f"Pass --{option.replace('_', '-')} {value}.")) from None
        except AccessError as error:
            raise CommandError(error.message) from None
        except ValidationError as error:
            raise CommandError(first_message(error)) from None
        if as_json:
            self.stdout.write(json.dumps(document, indent=2))
            return
        splits = ", ".join(f"{name} {n}" for name, n in result.splits.items())
        self.stdout.write(f"Wrote {document['rows']} questions of {result.name} to {result.folder} ({splits}; "
                          f"license {result.license}). Load it with datasets.load_dataset({str(result.folder)!r}).")
        if push_to_hub:
            self.stdout.write(f"Uploaded to {document['hub_url']}")
