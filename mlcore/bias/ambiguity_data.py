"""Readers for the ambiguity probes' inputs (SPEC-bias §4): the selectional-ambiguity JSON Lines
of ``shared/data/ambiguity`` and the UnQover word lists of ``shared/data/unqover``.
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mlcore.bias.lexical import lexical_tokens as _tokens
from mlcore.data.bounded_json import load_json

__all__ = [
    "AmbiguityOption", "AmbiguityQuestion", "UnqoverOccupation", "UnqoverSubject",
    "UNQOVER_OCCUPATIONS", "dominant_script", "parse_ambiguity_jsonl", "parse_ambiguity_predictions",
    "parse_unqover_occupations", "read_ambiguity_jsonl", "read_unqover_occupations", "read_unqover_subjects",
    "unqover_occupations",
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
            rec = load_json(line)
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


def parse_ambiguity_predictions(text: str) -> dict[str, str]:
    """Parse a model's answers to the ambiguity questions: ``{str(question id): answer}``.

    Two layouts: one JSON object mapping id -> answer (upstream's ``test_predictions.json``),
    or JSON Lines with ``{"id": ..., "prediction": ...}`` per line (``"answer"`` also accepted).
    ``""`` is an abstention. Errors name the 1-based line (or the key of the JSON object).

    Examples
    --------
    >>> parse_ambiguity_predictions('{"1": "Ann Lee", "2": ""}')
    {'1': 'Ann Lee', '2': ''}
    >>> parse_ambiguity_predictions('{"id": 7, "prediction": "Bob"}\\n{"id": 8, "answer": ""}')
    {'7': 'Bob', '8': ''}
    """
    try:
        whole = load_json(text)
    except json.JSONDecodeError:
        whole = None
    # A one-line JSON Lines file is also one JSON object; its "id" key tells them apart.
    if isinstance(whole, dict) and "id" not in whole:
        if not whole:
            raise ValueError("no predictions")
        bad = next((key for key, value in whole.items() if not isinstance(value, str)), None)
        if bad is not None:
            raise ValueError(f"the answer to question {bad!r} must be a string, got {whole[bad]!r}")
        return {str(key).strip(): value for key, value in whole.items()}
    out: dict[str, str] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = load_json(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"line {lineno}: not JSON ({exc.msg})") from None
        if not isinstance(record, dict) or "id" not in record:
            raise ValueError(f"line {lineno}: expected an object with \"id\" and \"prediction\"")
        answer = record.get("prediction", record.get("answer"))
        if not isinstance(answer, str):
            raise ValueError(f"line {lineno}: \"prediction\" must be a string, got {answer!r}")
        key = str(record["id"]).strip()
        if key in out:
            raise ValueError(f"line {lineno}: duplicate id {key}")
        out[key] = answer
    if not out:
        raise ValueError("no predictions")
    return out


def _word_list_lines(path: str | Path) -> list[tuple[int, str]]:
    """Non-blank, non-comment lines with their 1-based line numbers."""
    return _text_lines(Path(path).read_text(encoding="utf-8"))


def _text_lines(text: str) -> list[tuple[int, str]]:
    lines = text.splitlines()
    return [(n, ln.strip()) for n, ln in enumerate(lines, start=1) if ln.strip() and not ln.lstrip().startswith("#")]


@dataclass(frozen=True)
class UnqoverOccupation:
    """An UnQover activity: ``attribute`` "was an accountant", ``negated`` "can never be an accountant"."""

    occupation: str
    attribute: str
    negated: str | None = None

    @property
    def question(self) -> str:
        """The retrieval-ambiguity question: "Who was an accountant?" for UnQover's English lines.

        A list in another language (``[p_act] حسابدار``) asks with the occupation alone: an
        English "Who" would only be noise, and the question words of another language would match
        every biography in BM25 as "who was" would (English has them as stop words).
        """
        return f"Who {self.attribute}?" if self.attribute.split()[:1] in (["was"], ["is"]) else self.attribute


#: The 70 occupations of UnQover's ``activities/occupation_rev1`` (Li et al. 2020, Apache-2.0), in file
#: order, so the retrieval probe in a report needs no data files; a test checks them against the file.
UNQOVER_OCCUPATIONS: tuple[str, ...] = (
    "accountant", "ambassador", "architect", "astronaut", "astronomer", "athlete", "attendant", "babysitter",
    "banker", "broker", "butcher", "captain", "carpenter", "cashier", "clerk", "coach", "cook", "dancer", "dentist",
    "detective", "film director", "doctor", "journal editor", "engineer", "entrepreneur", "executive",
    "firefighter", "general", "bodyguard", "hunter", "home inspector", "intern", "inventor", "investigator",
    "janitor", "journalist", "judge", "lawyer", "lifeguard", "manager", "marine", "mechanic", "model",
    "guitar player", "nurse", "photographer", "piano player", "pilot", "plumber", "poet", "politician",
    "professor", "assistant professor", "programmer", "researcher", "research assistant", "salesperson",
    "scientist", "secretary", "senator", "singer", "spy", "supervisor", "surgeon", "tailor", "teacher",
    "technician", "violin player", "writer", "driver",
)


def unqover_occupations() -> tuple[UnqoverOccupation, ...]:
    """:data:`UNQOVER_OCCUPATIONS` as records, exactly as :func:`read_unqover_occupations` reads the file."""
    def article(o: str) -> str:
        return "an" if o[0] in "aeiou" else "a"

    return tuple(UnqoverOccupation(o, f"was {article(o)} {o}", f"can never be {article(o)} {o}")
                 for o in UNQOVER_OCCUPATIONS)


def parse_unqover_occupations(text: str, *, source: str = "occupations file") -> tuple[UnqoverOccupation, ...]:
    """Parse an occupation list in UnQover's ``activities/occupation_rev1`` format (errors name the line).

    ``[p_act] was an X`` lines, optionally followed by aligned ``[p_act:neg] ...`` lines. The
    occupation is the attribute without a leading "was a(n)"; a list in another language may give
    the occupation alone (``[p_act] حسابدار``). The i-th negated line must end with the i-th
    occupation, and occupations are distinct.

    Examples
    --------
    >>> [o.question for o in parse_unqover_occupations("[p_act] was a nurse\\n[p_act] پرستار")]
    ['Who was a nurse?', 'پرستار']
    """
    lines: dict[str, list[tuple[int, str]]] = {"[p_act": [], "[p_act:neg": []}
    for lineno, line in _text_lines(text):
        slot, _, attribute = line.partition("]")
        if slot not in lines or not attribute.strip():
            raise ValueError(f"{source}, line {lineno}: expected '[p_act] was a(n) <occupation>' "
                             f"or '[p_act:neg] ...', got {line!r}")
        lines[slot].append((lineno, " ".join(attribute.split())))
    positive, negated = lines["[p_act"], lines["[p_act:neg"]
    if not positive:
        raise ValueError(f"{source}: no occupations (no '[p_act] was a(n) <occupation>' line)")
    if negated and len(negated) != len(positive):
        raise ValueError(f"{source}: {len(positive)} [p_act] lines but {len(negated)} [p_act:neg] lines; "
                         f"give one negated line per occupation, or none")
    out: dict[str, UnqoverOccupation] = {}
    for i, (lineno, attr) in enumerate(positive):
        words = attr.split()
        occupation = " ".join(words[2:] if words[:1] == ["was"] and words[1:2] in (["a"], ["an"]) else words)
        if not occupation:
            raise ValueError(f"{source}, line {lineno}: no occupation after 'was a(n)'")
        if occupation in out:
            raise ValueError(f"{source}, line {lineno}: {occupation!r} is listed twice")
        if negated and not negated[i][1].endswith(" " + occupation) and negated[i][1] != occupation:
            raise ValueError(f"{source}, line {negated[i][0]}: this [p_act:neg] line should end with "
                             f"{occupation!r} (line {lineno}), got {negated[i][1]!r}")
        out[occupation] = UnqoverOccupation(occupation, attr, negated[i][1] if negated else None)
    return tuple(out.values())


def read_unqover_occupations(path: str | Path) -> tuple[UnqoverOccupation, ...]:
    """Read ``activities/occupation_rev1`` (UTF-8); see :func:`parse_unqover_occupations`.

    Examples
    --------
    UnQover's list, which is not in the repository (``shared/data`` beside it here):

    >>> occupations = read_unqover_occupations(  # data outside the repository  # doctest: +SKIP
    ...     "../shared/data/unqover/word_lists/activities/occupation_rev1")
    >>> len(occupations), occupations[0].occupation, occupations[0].question  # (the file is outside the repository)  # doctest: +SKIP
    (70, 'accountant', 'Who was an accountant?')
    """
    return parse_unqover_occupations(Path(path).read_text(encoding="utf-8"), source=str(path))


def dominant_script(texts: Iterable[str], *, max_chars: int = 200_000) -> str:
    """The writing system most letters of ``texts`` belong to ("Latin", "Arabic", ...; "" if none).

    A letter's script is the first word of its Unicode name ("ARABIC LETTER FARSI YEH" -> Arabic;
    CJK ideographs -> Han). Only the first ``max_chars`` characters are read: a sample is enough
    to tell Persian passages from English occupation titles.

    Examples
    --------
    >>> dominant_script(["Who was an accountant?"]), dominant_script(["حسابدار", "x"]), dominant_script(["42 !"])
    ('Latin', 'Arabic', '')
    """
    counts: Counter[str] = Counter()
    seen = 0
    for text in texts:
        text = text[:max_chars - seen]
        counts.update(unicodedata.name(ch, "?").split(" ", 1)[0] for ch in text if ch.isalpha())
        seen += len(text)
        if seen >= max_chars:
            break
    if not counts:
        return ""
    script = counts.most_common(1)[0][0]
    return "Han" if script == "CJK" else script.title()


@dataclass(frozen=True)
class UnqoverSubject:
    """A subject word-list entry such as ``[subj] female | Mary``."""

    name: str
    group: str


def read_unqover_subjects(path: str | Path) -> tuple[UnqoverSubject, ...]:
    """Read ``nouns/subjects/{female,male,...}`` lines (``[subj] group | name``)."""
    out = []
    for lineno, line in _word_list_lines(path):
        head, sep, name = line.partition("|")
        if not head.startswith("[subj]") or not sep or not name.strip():
            raise ValueError(f"{path}, line {lineno}: expected '[subj] group | name', got {line!r}")
        out.append(UnqoverSubject(name.strip(), head.removeprefix("[subj]").strip()))
    return tuple(out)


