"""Gender of a passage's subject or of a reader's answer, guessed from a first name (SPEC-bias §4.2-4.3).

Two lookups share one interface, ``first_name_gender(name) -> "male" | "female" | "unknown"``,
plus a ``description`` that every result records:

* :class:`GenderGuesserLookup` (default): the ``gender-guesser`` package's dictionary of about
  40 000 first names. Only its definite answers count; ``mostly_male``/``mostly_female`` are
  unknown unless ``include_mostly=True``, because the dictionary rates common words such as
  "The" ``mostly_female`` and a title like "The Beatles" must not become a woman.
* :class:`LexiconLookup`: a names file (UnQover's ``nouns/subjects/{female,male}`` lines
  ``[subj] female | Mary``, or ``Mary<TAB>female`` / ``Mary,female`` lines), see
  :func:`read_name_lexicon`.

Mao et al. list name-based guessing as a threat to validity (cultural bias, non-person pages);
that is why the lookup is configurable and always reported with the numbers.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol

from mlcore.bias.ambiguity import WIKIPEDIA_FEMALE_SHARE, GoodnessOfFitResult, gender_goodness_of_fit, passage_groups
from mlcore.bias.lexical import lexical_tokens

__all__ = [
    "GenderGuesserLookup",
    "answer_gender",
    "best_reader_answer",
    "reader_propagation",
    "GenderLookup",
    "LexiconLookup",
    "answer_group",
    "first_name",
    "parse_name_lexicon",
    "read_name_lexicon",
    "subject_gender",
    "subject_groups",
]

GENDERS = ("female", "male")
# "Marie Curie (physicist)" -> "Marie Curie": Wikipedia-style disambiguation is not part of the name.
_DISAMBIGUATION = re.compile(r"\s*\([^)]*\)\s*$")


class GenderLookup(Protocol):
    """What the probes need from a gender lookup."""

    description: str

    def first_name_gender(self, name: str) -> str:
        """``"male"``, ``"female"`` or ``"unknown"`` for one first name."""
        ...


@dataclass(frozen=True)
class LexiconLookup:
    """Gender from a fixed lexicon of lower-case first names (e.g. UnQover's name lists)."""

    lexicon: Mapping[str, str] = field(hash=False)
    description: str = "lexicon"

    def first_name_gender(self, name: str) -> str:
        return self.lexicon.get(name.lower(), "unknown")


@functools.lru_cache(maxsize=1)
def _detector() -> Any:
    # Loading the dictionary takes ~0.2 s, so it happens once per process and only when used.
    import gender_guesser.detector

    return gender_guesser.detector.Detector(case_sensitive=False)


class GenderGuesserLookup:
    """Gender from the ``gender-guesser`` dictionary (first names, all countries pooled).

    Parameters
    ----------
    include_mostly : bool
        Count ``mostly_male``/``mostly_female`` as male/female (default: unknown).
    """

    def __init__(self, *, include_mostly: bool = False) -> None:
        self.include_mostly = include_mostly

    @property
    def description(self) -> str:
        mostly = "mostly_* counted" if self.include_mostly else "definite answers only"
        return f"gender-guesser {metadata.version('gender-guesser')} on the first name ({mostly})"

    def first_name_gender(self, name: str) -> str:
        if not name:
            return "unknown"
        guess = _detector().get_gender(name)
        if self.include_mostly:
            guess = guess.removeprefix("mostly_")
        return guess if guess in GENDERS else "unknown"


def _strip_punctuation(word: str) -> str:
    """Drop punctuation at both ends ("Dr." -> "Dr", '"Ann,' -> "Ann"), keep inner hyphens."""
    start, end = 0, len(word)
    while start < end and unicodedata.category(word[start]).startswith("P"):
        start += 1
    while end > start and unicodedata.category(word[end - 1]).startswith("P"):
        end -= 1
    return word[start:end]


def first_name(title: str) -> str:
    """The first word of a page title, without disambiguation or punctuation ("" if none).

    Examples
    --------
    >>> first_name("Marie Curie (physicist)"), first_name('"Ada" Lovelace'), first_name(" ")
    ('Marie', 'Ada', '')
    """
    words = _DISAMBIGUATION.sub("", title).split()
    return _strip_punctuation(words[0]) if words else ""


def _word_gender(word: str, lookup: GenderLookup) -> str:
    gender = lookup.first_name_gender(word)
    # "Jean-Baptiste" is missing from most name lists, "Jean" is not.
    if gender == "unknown" and "-" in word.strip("-"):
        gender = lookup.first_name_gender(word.strip("-").split("-")[0])
    return gender


def subject_gender(title: str, lookup: GenderLookup) -> str:
    """Gender of a page's subject from the first name in its title; non-person pages are unknown.

    Examples
    --------
    >>> lookup = LexiconLookup({"ada": "female", "jean": "male"})
    >>> subject_gender("Ada Lovelace", lookup), subject_gender("Jean-Baptiste Biot", lookup)
    ('female', 'male')
    >>> subject_gender("Paris", lookup)
    'unknown'
    """
    return _word_gender(first_name(title), lookup)


def subject_groups(titles: Sequence[str], lookup: GenderLookup) -> tuple[str, ...]:
    """The group ("female", "male", "unknown") of each title, each distinct title looked up once."""
    known = {title: subject_gender(title, lookup) for title in set(titles)}
    return passage_groups(titles, known)


def answer_group(answer: str, lookup: GenderLookup) -> str:
    """Group of a reader's answer: the gender of its first word that is a known first name.

    Returns "neutral" when no word is a known name (e.g. "the engineer" or an empty answer),
    like :func:`answer_gender` does with a plain lexicon.

    Examples
    --------
    >>> answer_group("Dr. Mary Smith", LexiconLookup({"mary": "female"})), answer_group("", LexiconLookup({}))
    ('female', 'neutral')
    """
    for word in answer.split():
        gender = _word_gender(_strip_punctuation(word), lookup)
        if gender != "unknown":
            return gender
    return "neutral"


def _lexicon_line(line: str) -> tuple[str, str]:
    if line.startswith("[subj]"):  # UnQover: "[subj] female | Mary"
        group, sep, name = line.removeprefix("[subj]").partition("|")
    else:  # "Mary<TAB>female" or "Mary,female"
        name, sep, group = line.partition("\t") if "\t" in line else line.partition(",")
    if not sep or not name.strip():
        raise ValueError("expected '[subj] female | Mary', 'Mary<TAB>female' or 'Mary,female'")
    gender = group.strip().lower()
    if gender not in GENDERS:
        raise ValueError(f"gender must be 'female' or 'male', got {group.strip()!r}")
    return name.strip(), gender


def parse_name_lexicon(text: str, *, source: str = "names file") -> dict[str, str]:
    """Parse a names file into ``{lower-case first name: gender}`` (errors name the 1-based line).

    Blank lines and ``#`` comments are skipped; a name listed with both genders is an error.

    Examples
    --------
    >>> parse_name_lexicon("[subj] female | Mary\\nJames,male\\n# comment\\n")
    {'mary': 'female', 'james': 'male'}
    """
    lexicon: dict[str, str] = {}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            name, gender = _lexicon_line(line)
        except ValueError as exc:
            raise ValueError(f"{source}, line {lineno}: {exc}: {line!r}") from None
        key = name.lower()
        if lexicon.get(key, gender) != gender:
            raise ValueError(f"{source}, line {lineno}: {name!r} is listed as both {lexicon[key]} and {gender}")
        lexicon[key] = gender
    if not lexicon:
        raise ValueError(f"{source}: no names")
    return lexicon


def read_name_lexicon(*paths: str | Path) -> LexiconLookup:
    """A :class:`LexiconLookup` from one or more names files (e.g. UnQover's ``female`` and ``male``)."""
    if not paths:
        raise ValueError("give at least one names file")
    lexicon: dict[str, str] = {}
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read names file {path}: {exc}") from None
        for name, gender in parse_name_lexicon(text, source=str(path)).items():
            if lexicon.get(name, gender) != gender:
                raise ValueError(f"{path}: {name!r} is {gender} here but {lexicon[name]} in an earlier file")
            lexicon[name] = gender
    return LexiconLookup(lexicon, description="names lexicon " + ", ".join(Path(p).name for p in paths))


# --- the reader's answers (SPEC-bias §4.3) ------------------------------------------------

def best_reader_answer(candidates: Sequence[tuple[str, float]]) -> str:
    """The highest-confidence span over the retrieved passages (first one on ties)."""
    if not candidates:
        raise ValueError("no reader candidates")
    return max(enumerate(candidates), key=lambda ic: (ic[1][1], -ic[0]))[1][0]


def answer_gender(answer: str, lexicon: Mapping[str, str]) -> str:
    """Name-based guess: the group of the first answer token found in ``lexicon``.

    ``lexicon`` maps lower-case first names to "male"/"female" (e.g. built from
    :func:`read_unqover_subjects`); no match gives "neutral". Record that this
    guesser was used: the paper lists name-based guessing as a threat to validity.
    """
    for token in lexical_tokens(answer):
        if token in lexicon:
            return lexicon[token]
    return "neutral"


def reader_propagation(answer_groups: Sequence[str], *,
                       baseline_female_share: float = WIKIPEDIA_FEMALE_SHARE) -> GoodnessOfFitResult:
    """Run the §4.2 fit on the reader's answers, one group label per question.

    Labels are "male", "female", or "neutral"/"unknown"; neutral answers are
    reported as ``n_unknown`` and left out of the test.

    Examples
    --------
    >>> r = reader_propagation(["male"] * 52 + ["female"] * 6 + ["neutral"] * 12)
    >>> r.observed, r.n_unknown, round(r.pvalue, 6)
    ((52, 6), 12, 0.177239)
    """
    c = Counter(answer_groups)
    bad = set(c) - {"male", "female", "neutral", "unknown"}
    if bad:
        raise ValueError(f"unknown answer groups {sorted(bad)}")
    return gender_goodness_of_fit(c["male"], c["female"], baseline_female_share=baseline_female_share,
                                  n_unknown=c["neutral"] + c["unknown"])
