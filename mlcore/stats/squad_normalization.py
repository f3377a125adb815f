"""Answer normalization for SQuAD-2.0 / PQuAD scoring (SPEC-bias §6.2).

:func:`normalize_en` is the official ``evaluate-v2.0.py`` normalizer; :func:`normalize_fa` the
SPEC's documented choice for Persian (PQuAD publishes no script). :mod:`mlcore.stats.squad_metrics`
scores with them.
"""

from __future__ import annotations

import re
import string
import unicodedata
from functools import lru_cache

__all__ = ["normalize_en", "normalize_fa"]

_ASCII_PUNCT = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)


def normalize_en(text: str) -> str:
    """Normalize an answer exactly as the official SQuAD 2.0 script does.

    Lower-case, delete ASCII punctuation, replace whole-word ``a``/``an``/``the``
    by a space, collapse whitespace.

    Examples
    --------
    >>> normalize_en("U.S. Army, the 3.5%")
    'us army 35'
    """
    text = "".join(ch for ch in text.lower() if ch not in _ASCII_PUNCT)
    return " ".join(_ARTICLES.sub(" ", text).split())


def _fa_table() -> dict[int, str | None]:
    table: dict[int, str | None] = {0x064A: "\u06cc", 0x0649: "\u06cc", 0x0643: "\u06a9", 0x06C0: "\u0647"}
    for i in range(10):
        table[0x06F0 + i] = str(i)  # Persian digits
        table[0x0660 + i] = str(i)  # Arabic-Indic digits
    # Step 3b, hamza however it is written: NFKC composes Arabic yeh + hamza-above into U+0626 but
    # leaves Persian yeh + hamza-above decomposed, so both spellings must end as the base letter
    # (the loose marks U+0654/U+0655 are deleted below). Alef madda U+0622 is a letter and stays.
    table.update({0x0626: "\u06cc", 0x0624: "\u0648", 0x0623: "\u0627", 0x0625: "\u0627", 0x06C2: "\u0647"})
    deleted = [*range(0x064B, 0x0660), 0x0670, 0x0640, 0x00AD, 0x200E, 0x200F,
               *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0xFEFF]
    table.update(dict.fromkeys(deleted))
    # ZWNJ/ZWJ join the parts of a compound; a space lets F1 credit each part.
    table.update({0x200C: " ", 0x200D: " "})
    return table


_FA_TABLE = _fa_table()


@lru_cache(maxsize=4096)
def _is_punct(ch: str) -> bool:
    return ch in _ASCII_PUNCT or unicodedata.category(ch).startswith("P")


def normalize_fa(text: str) -> str:
    """Normalize a Persian (or mixed-script) answer as SPEC-bias §6.2 specifies.

    NFKC; Arabic yeh/alef maksura/kaf/heh-yeh to the Persian letters; Persian and
    Arabic-Indic digits to ASCII; hamza-carrying letters (``ئ ؤ أ إ ۂ``) to their base
    letter, so Arabic and Persian yeh + hamza agree; delete diacritics (hamza marks
    included), tatweel and invisible controls;
    ZWNJ/ZWJ to a space; lower-case; delete ASCII and Unicode ``P*`` punctuation;
    remove English articles; collapse whitespace. No Persian word is removed.

    Examples
    --------
    >>> out = normalize_fa("\\u00ab\\u06f1\\u06f3\\u00bb \\u0643\\u062a\\u0627\\u0628\\u200c\\u0647\\u0627")
    >>> out == "13 \\u06a9\\u062a\\u0627\\u0628 \\u0647\\u0627"
    True
    >>> normalize_fa("\\u0631\\u064a\\u0654\\u0627\\u0644") == normalize_fa("\\u0631\\u06cc\\u0654\\u0627\\u0644")  # SPEC R33
    True
    """
    text = unicodedata.normalize("NFKC", text).translate(_FA_TABLE).lower()
    text = "".join(ch for ch in text if not _is_punct(ch))
    return " ".join(_ARTICLES.sub(" ", text).split())
