"""Where the public CODAH questions come from, and the held-out split a model trained on them is measured on.

CODAH (Chen et al., "CODAH: An Adversarially-Authored Question Answering Dataset for Common Sense",
RepEval 2019) is released under the Open Data Commons Attribution License (ODC-By 1.0) at
https://github.com/Websail-NU/CODAH. The product does not ship the file: the operator names a local
copy or the official URL (``STUMPER_STARTER_CODAH``), and :func:`codah_source_file` returns a local
path, fetching the official file once.

Only the operator's setting decides what is fetched, and it is checked like an untrusted URL anyway:
https only, on the official host and repository, no redirects (a redirect is refused, not followed),
at most ``max_bytes`` read within ``timeout`` seconds per read, and the pinned official file must
have its published SHA-256.
"""

from __future__ import annotations

import hashlib
import os
import random
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import requests

__all__ = ["CODAH_ATTRIBUTION", "CodahUnavailable", "HoldoutSplit", "OFFICIAL_CODAH_URL", "codah_holdout_split",
           "codah_source_file", "codah_url_problem", "fetch_codah"]

#: The released ``data/full_data.tsv`` at the repository's snapshot commit (2,776 questions).
OFFICIAL_CODAH_URL = ("https://raw.githubusercontent.com/Websail-NU/CODAH/"
                      "acf7ffa4041ade86c6f7dd2f92fb08c957350280/data/full_data.tsv")
#: SHA-256 of the file at ``OFFICIAL_CODAH_URL`` (485,130 bytes).
OFFICIAL_CODAH_SHA256 = "96689f2abf2f09eb91af50e2d8f92bb553e157601908a1cee83fe68670b5c3ea"
CODAH_HOST = "raw.githubusercontent.com"
CODAH_PATH_PREFIX = "/Websail-NU/CODAH/"
CODAH_ATTRIBUTION = ("CODAH (Chen, D'Arcy, Liu, Fernandez and Downey, \"CODAH: An Adversarially-Authored Question "
                     "Answering Dataset for Common Sense\", RepEval 2019; https://github.com/Websail-NU/CODAH), "
                     "used under the Open Data Commons Attribution License (ODC-By 1.0)")
CHUNK_BYTES = 64 * 1024


class CodahUnavailable(Exception):
    """The CODAH file could not be had; the message says why, in a few words."""


@dataclass(frozen=True)
class HoldoutSplit:
    """Indices of the questions trained on and of those held out to measure the model."""

    train: tuple[int, ...]
    test: tuple[int, ...]
    fraction: float
    seed: int


def codah_holdout_split(n: int, *, fraction: float = 0.1, seed: int = 0) -> HoldoutSplit:
    """Hold out ``round(n * fraction)`` (at least 1) of ``n`` questions, drawn with ``random.Random(seed)``.

    Examples
    --------
    >>> split = codah_holdout_split(20, fraction=0.1, seed=0)
    >>> len(split.train), len(split.test), sorted(split.train + split.test) == list(range(20))
    (18, 2, True)
    """
    if n < 2:
        raise ValueError(f"need at least 2 questions to hold some out, got {n}")
    if not 0 < fraction < 1:
        raise ValueError(f"fraction must be between 0 and 1, got {fraction}")
    size = min(n - 1, max(1, round(n * fraction)))
    test = sorted(random.Random(seed).sample(range(n), size))
    held = set(test)
    return HoldoutSplit(train=tuple(i for i in range(n) if i not in held), test=tuple(test),
                        fraction=fraction, seed=seed)


def codah_url_problem(url: str) -> str:
    """Why ``url`` may not be fetched as the CODAH file ("" when it may)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "not a valid URL"
    if parts.scheme != "https":
        return "only https:// URLs are fetched"
    if parts.username is not None or parts.password is not None or port not in (None, 443):
        return "the URL may not carry a user name, password or port"
    if (parts.hostname or "").lower() != CODAH_HOST or not parts.path.startswith(CODAH_PATH_PREFIX):
        return f"only the official CODAH repository's files are fetched (https://{CODAH_HOST}{CODAH_PATH_PREFIX}...)"
    if ".." in parts.path.split("/") or parts.query or parts.fragment:
        return "the URL may not hold '..', a query or a fragment"
    return ""


def fetch_codah(url: str, destination: Path, *, max_bytes: int, timeout: float) -> Path:
    """Download ``url`` to ``destination`` (written whole or not at all); raises CodahUnavailable."""
    problem = codah_url_problem(url)
    if problem:
        raise CodahUnavailable(f"{url} refused: {problem}")
    digest = hashlib.sha256()
    destination.parent.mkdir(parents=True, exist_ok=True)
    partial = destination.with_name(f".{destination.name}.{uuid.uuid4().hex[:8]}.partial")
    try:
        with requests.get(url, stream=True, timeout=timeout, allow_redirects=False) as answer:
            if answer.is_redirect or answer.status_code != 200:
                raise CodahUnavailable(f"{url} answered HTTP {answer.status_code} (redirects are not followed)")
            declared = answer.headers.get("Content-Length", "")
            if declared.isdigit() and int(declared) > max_bytes:
                raise CodahUnavailable(f"{url} is larger than {max_bytes} bytes")
            size = 0
            with partial.open("wb") as out:
                for chunk in answer.iter_content(CHUNK_BYTES):
                    size += len(chunk)
                    if size > max_bytes:
                        raise CodahUnavailable(f"{url} is larger than {max_bytes} bytes")
                    digest.update(chunk)
                    out.write(chunk)
        if url == OFFICIAL_CODAH_URL and digest.hexdigest() != OFFICIAL_CODAH_SHA256:
            raise CodahUnavailable(f"{url} is not the published file (its SHA-256 differs)")
        os.replace(partial, destination)
    except requests.RequestException as error:
        raise CodahUnavailable(f"{url} could not be fetched ({type(error).__name__})") from error
    finally:
        partial.unlink(missing_ok=True)
    return destination


def codah_source_file(source: str, *, cache_dir: Path, max_bytes: int, timeout: float) -> Path:
    """A local CODAH TSV file from ``source``: a path, or an https URL fetched once into ``cache_dir``."""
    source = source.strip()
    if not source:
        raise CodahUnavailable("no source is configured (STUMPER_STARTER_CODAH is empty)")
    if "://" not in source:
        path = Path(source)
        if not path.is_file():
            raise CodahUnavailable(f"{path} is not a file")
        return path
    cached = cache_dir / f"codah-{hashlib.sha256(source.encode()).hexdigest()[:16]}.tsv"
    if cached.is_file():
        return cached
    return fetch_codah(source, cached, max_bytes=max_bytes, timeout=timeout)
