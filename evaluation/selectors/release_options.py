"""What a dataset release contains (options of ``manage.py export_hf``, its form and API)."""
from __future__ import annotations

from dataclasses import dataclass

from mlcore.data.release.card import FIELDS
from mlcore.data.release.licenses import DEFAULT_LICENSE, UnknownLicense, check_license

STATUSES = ("accepted", "all")
SPLIT_METHODS = ("author", "folds", "article")


class ReleaseError(Exception):
    """A release cannot be made as asked; the message says what is missing or wrong."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class ReleaseOptions:
    """``split_by=None``: by author for a round, by article for a project."""

    status: str = "accepted"
    split_by: str | None = None
    fields: tuple[str, ...] = ()
    pseudonymise: bool = True
    license: str = DEFAULT_LICENSE
    seed: int = 0


def release_options_clean(*, status: str = "accepted", split_by: str | None = None, fields=(),
                          pseudonymise: bool = True, license: str = DEFAULT_LICENSE, seed: int = 0) -> ReleaseOptions:
    """Checked options, or a ReleaseError naming the bad one (an unknown license lists close ids)."""
    if status not in STATUSES:
        raise ReleaseError(f"Unknown status {status!r}: use accepted or all (rejected questions are never released).")
    if split_by is not None and split_by not in SPLIT_METHODS:
        raise ReleaseError(f"Unknown split method {split_by!r}: use {', '.join(SPLIT_METHODS)}.")
    if isinstance(fields, str):
        fields = [f for f in fields.split(",") if f.strip()]
    fields = tuple(dict.fromkeys(f.strip() for f in fields))
    unknown = [f for f in fields if f not in FIELDS]
    if unknown:
        raise ReleaseError(f"Unknown field(s) {', '.join(unknown)}: choose from {', '.join(FIELDS)}.")
    try:
        license_id = check_license(license)
    except UnknownLicense as error:
        raise ReleaseError(str(error)) from None
    return ReleaseOptions(status, split_by, fields, bool(pseudonymise), license_id, int(seed))


@dataclass(frozen=True)
class ReleaseContent:
    """Everything a release folder holds, built from the database before anything is written."""

    name: str  # folder / zip name, e.g. "stumper-r1"
    kind: str
    rows_by_split: dict[str, list[dict]]
    features: object  # datasets.Features
    card: object  # mlcore.data.release.card.DatasetCardText
    warnings: tuple[str, ...] = ()

    def counts(self) -> dict[str, int]:
        return {split: len(rows) for split, rows in self.rows_by_split.items()}


def release_options_from_query(query) -> ReleaseOptions:
    """Options from a download's query string (the page's form and the API take the same):
    ``status``, ``split_by``, ``fields`` (repeated or comma-separated), ``license``, ``authors``
    (``pseudonyms`` or ``usernames``) and ``seed``."""
    fields = [part for value in query.getlist("fields") for part in value.split(",") if part.strip()]
    authors = query.get("authors") or "pseudonyms"
    if authors not in ("pseudonyms", "usernames"):
        raise ReleaseError(f"Unknown authors setting {authors!r}: use pseudonyms or usernames.")
    seed = query.get("seed") or "0"
    if not seed.isdigit() or int(seed) > 2**31 - 1:
        raise ReleaseError("The seed must be a whole number from 0 to 2147483647.")
    return release_options_clean(status=query.get("status") or "accepted", split_by=query.get("split_by") or None,
                                 fields=fields, pseudonymise=authors == "pseudonyms",
                                 license=query.get("license") or DEFAULT_LICENSE, seed=int(seed))
