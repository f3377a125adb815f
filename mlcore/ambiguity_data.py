"""Readers for the ambiguity probes' inputs (SPEC-bias §4): the selectional-ambiguity JSON Lines
of ``shared/data/ambiguity`` and the UnQover word lists of ``shared/data/unqover``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from mlcore.lexical import lexical_tokens as _tokens

__all__ = [
    "AmbiguityOption", "AmbiguityQuestion", "UnqoverOccupation", "UnqoverSubject",
    "parse_ambiguity_jsonl", "read_ambiguity_jsonl", "read_unqover_occupations", "read_unqover_subjects",
]


@dataclass(frozen=True)
class AmbiguityOption:
    """One gold discoverer: name plus the protected attributes of the record."""

    name: str
    gender: str
    nationality: str = "unknown"
    ethnicity: str = "unknown"


@dataclass(frozen=True)
class AmbiguityQuestion:
    """A selectional-ambiguity question ("Who discovered the X") with its gold options."""

    id: int
    name: str
    question: str
    context: str
    options: tuple[AmbiguityOption, ...]


def parse_ambiguity_jsonl(text: str) -> tuple[AmbiguityQuestion, ...]:
    """Parse the JSON Lines format of ``shared/data/ambiguity`` (errors name the 1-based line).

    Every line needs ``id, name, question, context, options[{name, gender, ...}]``;
    ids are unique and every option name has at least one token.

    Examples
    --------
    >>> line = ('{"id": 1, "name": "X law", "question": "Who discovered the X law", "context": "",'
    ...         ' "options": [{"name": "Ann X", "gender": "female"}]}')
    >>> parse_ambiguity_jsonl(line)[0].options[0].gender
    'female'
    """
    out: dict[int, AmbiguityQuestion] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            options = tuple(AmbiguityOption(str(o["name"]), str(o["gender"]), str(o.get("nationality", "unknown")),
                                            str(o.get("ethnicity", "unknown"))) for o in rec["options"])
            q = AmbiguityQuestion(int(rec["id"]), str(rec["name"]), str(rec["question"]), str(rec["context"]),
                                  options)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"line {lineno}: not an ambiguity record ({exc!r})") from None
        if q.id in out:
            raise ValueError(f"line {lineno}: duplicate id {q.id}")
        if not options or any(not _tokens(o.name) for o in options):
            raise ValueError(f"line {lineno}: every question needs options with non-empty names")
        out[q.id] = q
    return tuple(out.values())


def read_ambiguity_jsonl(path: str | Path) -> tuple[AmbiguityQuestion, ...]:
    """Read a JSON Lines question file (UTF-8); see :func:`parse_ambiguity_jsonl`."""
    return parse_ambiguity_jsonl(Path(path).read_text(encoding="utf-8"))


def _word_list_lines(path: str | Path) -> list[str]:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]


@dataclass(frozen=True)
class UnqoverOccupation:
    """An UnQover activity: ``attribute`` "was an accountant", ``negated`` "can never be an accountant"."""

    occupation: str
    attribute: str
    negated: str | None = None

    @property
    def question(self) -> str:
        """The retrieval-ambiguity question, e.g. "Who was an accountant?"."""
        return f"Who {self.attribute}?"


def read_unqover_occupations(path: str | Path) -> tuple[UnqoverOccupation, ...]:
    """Read ``activities/occupation_rev1``: ``[p_act] was an X`` lines, then ``[p_act:neg]`` lines.

    The occupation is the attribute without its leading "was a(n)"; the i-th negated
    line must end with the i-th occupation.

    Examples
    --------
    >>> occ = read_unqover_occupations("shared/data/unqover/word_lists/activities/occupation_rev1")  # doctest: +SKIP
    >>> occ[0].occupation, occ[0].question  # doctest: +SKIP
    ('accountant', 'Who was an accountant?')
    """
    lines: dict[str, list[str]] = {"[p_act": [], "[p_act:neg": []}
    for line in _word_list_lines(path):
        slot, _, attribute = line.partition("]")
        if slot not in lines:
            raise ValueError(f"{path}: unexpected line {line!r}")
        lines[slot].append(attribute.strip())
    positive, negated = lines["[p_act"], lines["[p_act:neg"]
    out = []
    for i, attr in enumerate(positive):
        words = attr.split()
        occupation = " ".join(words[2:] if words[:1] == ["was"] and words[1:2] in (["a"], ["an"]) else words)
        if negated and (len(negated) != len(positive) or not negated[i].endswith(" " + occupation)):
            raise ValueError(f"{path}: [p_act:neg] lines do not align with [p_act] lines at {occupation!r}")
        out.append(UnqoverOccupation(occupation, attr, negated[i] if negated else None))
    return tuple(out)


@dataclass(frozen=True)
class UnqoverSubject:
    """A subject word-list entry such as ``[subj] female | Mary``."""

    name: str
    group: str


def read_unqover_subjects(path: str | Path) -> tuple[UnqoverSubject, ...]:
    """Read ``nouns/subjects/{female,male,...}`` lines (``[subj] group | name``)."""
    out = []
    for line in _word_list_lines(path):
        head, sep, name = line.partition("|")
        if not head.startswith("[subj]") or not sep or not name.strip():
            raise ValueError(f"{path}: expected '[subj] group | name', got {line!r}")
        out.append(UnqoverSubject(name.strip(), head.removeprefix("[subj]").strip()))
    return tuple(out)


