"""Dataset releases in the Hugging Face format: a folder, a zip of it, or an upload to a hub.

The options are checked here (``release_options_clean``; a download's query string:
``release_options_from_query``). The content (``evaluation/selectors/round_releases.py`` /
``project_releases.py``) is built from the database first, so
a release that cannot be made (an empty or unvalidated round, an unknown license, a missing
scoring run) fails before any file exists; the folder is then written under a temporary name
and renamed at the end (``mlcore/data/release/files.py``), so nothing is ever half-written.
"""
from __future__ import annotations

import hashlib
import io
import logging
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from annotation.models import Project
from collector.models import Round
from evaluation.selectors.releases import ReleaseContent, ReleaseError, ReleaseOptions
from mlcore.data.release.card import FIELDS
from mlcore.data.release.licenses import UnknownLicense, UnknownSource, check_dataset_id, check_license

logger = logging.getLogger(__name__)

STATUSES = ("accepted", "all")
SPLIT_METHODS = ("author", "folds", "article")


def release_options_clean(*, status: str = "accepted", split_by: str | None = None, fields=(),
                          pseudonymise: bool = True, license: str | None = None, seed: int = 0,
                          source_dataset: str | None = None) -> ReleaseOptions:
    """Checked options, or a ReleaseError naming the bad one (an unknown license lists close ids).

    ``license`` and ``source_dataset`` left out (``None`` or blank): those recorded at import for
    imported questions, ``cc-by-sa-4.0`` for questions written in Stumper (``release_source``)."""
    if status not in STATUSES:
        raise ReleaseError(f"Unknown status {status!r}: use accepted or all (rejected questions are never released).",
                           field="status")
    if split_by is not None and split_by not in SPLIT_METHODS:
        raise ReleaseError(f"Unknown split method {split_by!r}: use {', '.join(SPLIT_METHODS)}.", field="split_by")
    if isinstance(fields, str):
        fields = [f for f in fields.split(",") if f.strip()]
    fields = tuple(dict.fromkeys(f.strip() for f in fields))
    unknown = [f for f in fields if f not in FIELDS]
    if unknown:
        raise ReleaseError(f"Unknown field(s) {', '.join(unknown)}: choose from {', '.join(FIELDS)}.", field="fields")
    try:
        license_id = check_license(license) if (license or "").strip() else None
    except UnknownLicense as error:
        raise ReleaseError(str(error), field="license") from None
    try:
        dataset = check_dataset_id(source_dataset) if (source_dataset or "").strip() else None
    except UnknownSource as error:
        raise ReleaseError(str(error), field="source_dataset") from None
    return ReleaseOptions(status, split_by, fields, bool(pseudonymise), license_id, int(seed), dataset)


def release_options_from_query(query) -> ReleaseOptions:
    """Options from a download's query string (the page's form and the API take the same):
    ``status``, ``split_by``, ``fields`` (repeated or comma-separated), ``license``, ``source_dataset``,
    ``authors`` (``pseudonyms`` or ``usernames``) and ``seed``."""
    fields = [part for value in query.getlist("fields") for part in value.split(",") if part.strip()]
    authors = query.get("authors") or "pseudonyms"
    if authors not in ("pseudonyms", "usernames"):
        raise ReleaseError(f"Unknown authors setting {authors!r}: use pseudonyms or usernames.", field="authors")
    seed = query.get("seed") or "0"
    if not seed.isdigit() or int(seed) > 2**31 - 1:
        raise ReleaseError("The seed must be a whole number from 0 to 2147483647.", field="seed")
    return release_options_clean(status=query.get("status") or "accepted", split_by=query.get("split_by") or None,
                                 fields=fields, pseudonymise=authors == "pseudonyms",
                                 license=query.get("license") or None, seed=int(seed),
                                 source_dataset=query.get("source_dataset") or None)


@dataclass(frozen=True)
class ReleaseResult:
    folder: Path
    name: str
    kind: str
    license: str
    splits: dict[str, int]
    files: tuple[str, ...]

    def as_dict(self) -> dict:
        return {"folder": str(self.folder), "name": self.name, "kind": self.kind, "license": self.license,
                "splits": self.splits, "rows": sum(self.splits.values()), "files": list(self.files)}


def _pseudonym_key() -> bytes:
    # Derived from SECRET_KEY: pseudonyms stay the same across releases of one installation,
    # and cannot be recomputed from the released data.
    return hashlib.sha256(f"stumper-release:{settings.SECRET_KEY}".encode()).digest()


def release_content(*, options: ReleaseOptions, round_: Round | None = None,
                    project: Project | None = None) -> ReleaseContent:
    """What the release of ``round_`` (or ``project``) holds; a ReleaseError says what is missing."""
    if (round_ is None) == (project is None):
        raise TypeError("give exactly one of round_ and project")
    # Imported here for start-up time, not for a cycle: both import mlcore.data.release.files and
    # with it the datasets library (about 1.4 s), which the URLconf (views/releases.py) must not pay.
    if round_ is not None:
        from evaluation.selectors.round_releases import round_release_content

        return round_release_content(round_=round_, options=options, key=_pseudonym_key())
    from evaluation.selectors.project_releases import project_release_content

    return project_release_content(project=project, options=options, key=_pseudonym_key())


def release_export(*, out_dir: Path, options: ReleaseOptions, round_: Round | None = None,
                   project: Project | None = None, overwrite: bool = False) -> ReleaseResult:
    """Write the release folder ``out_dir`` (Parquet per split + README.md card), atomically."""
    # datasets (and through it torch) is imported only when a release is written, not with the URLconf.
    from mlcore.data.release.files import ReleaseFolderError, write_release

    content = release_content(options=options, round_=round_, project=project)
    try:
        written = write_release(Path(out_dir), rows_by_split=content.rows_by_split, features=content.features,
                                card_text=content.card.text, overwrite=overwrite)
    except ReleaseFolderError as error:
        raise ReleaseError(str(error)) from None
    except OSError as error:
        raise ReleaseError(f"Cannot write {out_dir}: {error.strerror or error}; nothing was written.") from None
    logger.info("Release %s written to %s: %s", content.name, out_dir, content.counts())
    return ReleaseResult(written.folder, content.name, content.kind, content.license, content.counts(), written.files)


def release_zip(*, options: ReleaseOptions, round_: Round | None = None,
                project: Project | None = None) -> tuple[str, bytes]:
    """``(file name, zip bytes)`` of the release folder, for the download on the round/project page and API."""
    with tempfile.TemporaryDirectory(prefix="stumper-release-") as tmp:
        result = release_export(out_dir=Path(tmp) / "release", options=options, round_=round_, project=project)
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for name in result.files:
                archive.write(result.folder / name, f"{result.name}/{name}")
    return f"{result.name}.zip", buffer.getvalue()


def release_push_to_hub(*, folder: Path, repo_id: str, private: bool = True, token: str | None = None) -> str:
    """Upload a written release folder as the dataset repository ``repo_id``; returns its URL.

    The token is ``settings.HF_TOKEN`` (environment variable ``HF_TOKEN``) unless given.
    Everything up to ``HfApi.upload_folder`` is checked locally: the repository id, the token,
    the card's metadata (parsed as the Hub does).
    """
    from huggingface_hub import DatasetCard, HfApi, constants
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    try:
        validate_repo_id(repo_id)
    except HFValidationError as error:
        raise ReleaseError(f"Invalid hub repository id {repo_id!r}: {error}") from None
    if "/" not in repo_id:
        raise ReleaseError(f"Give the repository as OWNER/NAME (e.g. my-lab/{repo_id}).")
    token = token or getattr(settings, "HF_TOKEN", "")
    if not token:
        raise ReleaseError("No hub token: set the environment variable HF_TOKEN (a write token) and try again.")
    if constants.HF_HUB_OFFLINE:
        raise ReleaseError("HF_HUB_OFFLINE is set: unset it (HF_HUB_OFFLINE=0) to upload to the hub.")
    card = DatasetCard.load(Path(folder) / "README.md")
    if not card.data.license or not card.data.configs:
        raise ReleaseError(f"{folder} is not a release folder written by export_hf (its card has no license or configs).")
    api = HfApi(token=token)
    api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
    commit = api.upload_folder(repo_id=repo_id, repo_type="dataset", folder_path=str(folder),
                               commit_message="Stumper dataset release")
    return getattr(commit, "repo_url", None) or f"https://huggingface.co/datasets/{repo_id}"
