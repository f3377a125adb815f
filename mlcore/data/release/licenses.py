"""The license ids the Hugging Face Hub accepts in a card's ``license:`` field, and the source
datasets (with their licenses) that imported questions come from.

Copied from https://huggingface.co/docs/hub/repositories-licenses (the Hub's own list; the
``huggingface_hub`` package does not ship it). ``other`` needs ``license_name``/``license_link``
on the Hub, so it is refused here with a message saying to choose a listed id.
"""
from __future__ import annotations

import difflib
import re

HUB_LICENSES = frozenset({
    "apache-2.0", "mit", "openrail", "bigscience-openrail-m", "creativeml-openrail-m", "bigscience-bloom-rail-1.0",
    "bigcode-openrail-m", "afl-3.0", "artistic-2.0", "bsl-1.0", "bsd", "bsd-2-clause", "bsd-3-clause",
    "bsd-3-clause-clear", "c-uda", "cc", "cc0-1.0", "cc-by-2.0", "cc-by-2.5", "cc-by-3.0", "cc-by-4.0",
    "cc-by-sa-3.0", "cc-by-sa-4.0", "cc-by-nc-2.0", "cc-by-nc-3.0", "cc-by-nc-4.0", "cc-by-nd-4.0",
    "cc-by-nc-nd-3.0", "cc-by-nc-nd-4.0", "cc-by-nc-sa-2.0", "cc-by-nc-sa-3.0", "cc-by-nc-sa-4.0",
    "cdla-sharing-1.0", "cdla-permissive-1.0", "cdla-permissive-2.0", "wtfpl", "ecl-2.0", "epl-1.0", "epl-2.0",
    "etalab-2.0", "eupl-1.1", "eupl-1.2", "agpl-3.0", "gfdl", "gpl", "gpl-2.0", "gpl-3.0", "lgpl", "lgpl-2.1",
    "lgpl-3.0", "isc", "h-research", "intel-research", "lppl-1.3c", "ms-pl", "apple-ascl", "apple-amlr", "mpl-2.0",
    "odc-by", "odbl", "openrail++", "osl-3.0", "postgresql", "ofl-1.1", "ncsa", "unlicense", "zlib", "pddl",
    "lgpl-lr", "deepfloyd-if-license", "fair-noncommercial-research-license", "llama2", "llama3", "llama3.1",
    "llama3.2", "llama3.3", "llama4", "gemma", "unknown",
})
DEFAULT_LICENSE = "cc-by-sa-4.0"  # the default for questions written in Stumper (SQuAD 2.0's license)
LICENSES_URL = "https://huggingface.co/docs/hub/repositories-licenses"


class UnknownLicense(ValueError):
    """A license string the Hub would not accept; the message lists close matches."""


def check_license(value: str) -> str:
    """The Hub license id ``value`` (case and surrounding spaces ignored), or ``UnknownLicense``.

    Examples
    --------
    >>> check_license(" CC-BY-SA-4.0 ")
    'cc-by-sa-4.0'
    """
    license_id = (value or "").strip().lower()
    if license_id in HUB_LICENSES:
        return license_id
    close = difflib.get_close_matches(license_id, sorted(HUB_LICENSES), n=3, cutoff=0.6)
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    raise UnknownLicense(f"Unknown license {value!r}: the Hugging Face Hub accepts only its license ids "
                         f"(e.g. cc-by-sa-4.0, cc-by-4.0, cc0-1.0, mit, apache-2.0; list: {LICENSES_URL}).{hint}")


#: The datasets Stumper's imports read, under their Hub ids (legacy canonical names) and the license
#: each states: CODAH's repository README (ODC-By 1.0), the SQuAD 2.0 site and PQuAD's repository
#: (CC BY-SA 4.0). An import of one of these records its license without being told.
KNOWN_SOURCES = {"codah": "odc-by", "squad_v2": "cc-by-sa-4.0", "pquad": "cc-by-sa-4.0"}
# A Hub dataset id: NAME or OWNER/NAME (letters, digits, ``-``, ``_``, ``.``), as ``source_datasets`` lists them.
_DATASET_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,95}(/[A-Za-z0-9][A-Za-z0-9._-]{0,95})?")


class UnknownSource(ValueError):
    """A source dataset or its license that cannot be recorded; the message says why."""


def check_dataset_id(dataset: str) -> str:
    """``dataset`` (surrounding spaces removed) if it is a Hub dataset id, or ``UnknownSource``."""
    dataset = (dataset or "").strip()
    if not _DATASET_ID.fullmatch(dataset):
        raise UnknownSource(f"Invalid source dataset {dataset!r}: give its Hugging Face Hub id, NAME or OWNER/NAME "
                            f"(e.g. {', '.join(KNOWN_SOURCES)}).")
    return dataset


def check_source(dataset: str, license: str | None = None) -> tuple[str, str]:
    """``(dataset id, license id)`` of imported data; the license of a known dataset may be left out.

    Examples
    --------
    >>> check_source("codah")
    ('codah', 'odc-by')
    >>> check_source("my-lab/quiz", "CC-BY-4.0")
    ('my-lab/quiz', 'cc-by-4.0')
    """
    dataset = check_dataset_id(dataset)
    if license is None or not license.strip():
        if dataset not in KNOWN_SOURCES:
            raise UnknownSource(f"Give the license of {dataset} (a Hub license id): it is not one of the datasets "
                                f"whose license is known here ({', '.join(KNOWN_SOURCES)}).")
        return dataset, KNOWN_SOURCES[dataset]
    try:
        return dataset, check_license(license)
    except UnknownLicense as error:
        raise UnknownSource(str(error)) from None


def merged_source(recorded: tuple[str, str], dataset: str, license: str | None = None) -> tuple[str, str] | None:
    """What an import records as its target's source: ``None`` when ``dataset`` is empty (nothing to
    record), else the checked pair, which must match what an earlier import recorded (one source per
    round or project, so that its release can name it)."""
    if not (dataset or "").strip():
        return None
    source = check_source(dataset, license)
    if recorded[0] and tuple(recorded) != source:
        raise UnknownSource(f"This target already holds questions imported from {recorded[0]} ({recorded[1]}); "
                            f"import {source[0]} ({source[1]}) into another one, so that each release names its source.")
    return source
