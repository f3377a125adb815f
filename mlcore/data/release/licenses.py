"""The license ids the Hugging Face Hub accepts in a card's ``license:`` field.

Copied from https://huggingface.co/docs/hub/repositories-licenses (the Hub's own list; the
``huggingface_hub`` package does not ship it). ``other`` needs ``license_name``/``license_link``
on the Hub, so it is refused here with a message saying to choose a listed id.
"""
from __future__ import annotations

import difflib

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
DEFAULT_LICENSE = "cc-by-sa-4.0"  # CODAH's and SQuAD 2.0's license
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
