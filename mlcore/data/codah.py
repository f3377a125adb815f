"""Reading, validating and writing the CODAH TSV format.

Format (no header, UTF-8, one question per line, 7 tab-separated fields)::

    code<TAB>prompt<TAB>answer0<TAB>answer1<TAB>answer2<TAB>answer3<TAB>index

``code`` is a concatenation of category letters (``i r p n q o``, see
:data:`~mlcore.configs.CATEGORY_CODES`); an empty code means no category (the
released ``full_data.tsv`` has 10 such rows besides its 2,080 coded ``o``), and
stays empty. Texts are kept exactly as written (no stripping), so
``format_codah_tsv(parse_codah_tsv(text).examples) == text`` for the released
``full_data.tsv``.

The released file has 3 questions with a repeated distractor (lines 1826,
1856 and 2306 of ``full_data.tsv``), so reading the public data needs
``allow_duplicate_choices=True``; uploads from students stay strict.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mlcore.configs import CATEGORY_CODES, NUM_CHOICES, MCExample

__all__ = ["CodahParseResult", "RowError", "format_codah_tsv", "parse_codah_json", "parse_codah_tsv",
           "read_codah_file"]

_N_FIELDS = 2 + NUM_CHOICES + 1
_LETTER_OF = {name: letter for letter, name in CATEGORY_CODES.items()}


@dataclass(frozen=True)
class RowError:
    """A problem with one input line; ``line`` is 1-based."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class CodahParseResult:
    """Valid questions plus one error per rejected line (a line is never half-accepted)."""

    examples: tuple[MCExample, ...]
    errors: tuple[RowError, ...]
    #: 1-based line of each example, so later checks can point at the right line too.
    lines: tuple[int, ...] = ()
    #: What ``line`` counts: ``"line"`` of the file, or ``"item"`` of a JSON array.
    unit: str = "line"

    @property
    def ok(self) -> bool:
        """True if no line was rejected."""
        return not self.errors


def _parse_categories(code: str) -> tuple[tuple[str, ...], str | None]:
    letters = code.strip().lower()
    if not letters:
        return (), None  # uncategorised: "other" (``o``) is a category of its own
    unknown = sorted({c for c in letters if c not in CATEGORY_CODES})
    if unknown:
        allowed = " ".join(CATEGORY_CODES)
        return (), f"unknown category letter(s) {', '.join(map(repr, unknown))} (allowed: {allowed}, or empty)"
    if len(set(letters)) != len(letters):
        return (), f"category code {code!r} repeats a letter"
    return tuple(CATEGORY_CODES[c] for c in letters), None


def _parse_row(fields: list[str], *, max_prompt_chars: int, max_choice_chars: int,
               allow_duplicate_choices: bool) -> tuple[MCExample | None, list[str]]:
    """Validate one split line; return the example or every problem found."""
    if len(fields) != _N_FIELDS:
        return None, [f"expected {_N_FIELDS} tab-separated fields, found {len(fields)}"]
    code, prompt, *choices, index = fields
    problems: list[str] = []
    categories, category_problem = _parse_categories(code)
    if category_problem:
        problems.append(category_problem)
    if not prompt.strip():
        problems.append("prompt is empty")
    elif len(prompt) > max_prompt_chars:
        problems.append(f"prompt is {len(prompt)} characters long (limit {max_prompt_chars})")
    for number, choice in enumerate(choices):
        if not choice.strip():
            problems.append(f"answer {number} is empty")
        elif len(choice) > max_choice_chars:
            problems.append(f"answer {number} is {len(choice)} characters long (limit {max_choice_chars})")
    normalised = [" ".join(c.split()).casefold() for c in choices if c.strip()]
    if not allow_duplicate_choices and len(set(normalised)) != len(normalised):
        problems.append("two answers are the same")
    label_text = index.strip()
    if label_text not in {str(i) for i in range(NUM_CHOICES)}:
        problems.append(f"correct answer index must be one of 0, 1, 2, 3, got {index!r}")
    if problems:
        return None, problems
    return MCExample(prompt=prompt, choices=tuple(choices), label=int(label_text), categories=categories), []


def parse_codah_tsv(
    text: str,
    *,
    max_prompt_chars: int = 500,
    max_choice_chars: int = 200,
    allow_duplicate_choices: bool = False,
) -> CodahParseResult:
    """Parse and validate CODAH TSV text.

    Parameters
    ----------
    text : str
        File contents. LF or CRLF line endings; blank lines are skipped.
    max_prompt_chars, max_choice_chars : int
        Longest accepted prompt / answer, in characters.
    allow_duplicate_choices : bool
        Accept rows where two answers are equal (ignoring case and spacing);
        needed for the released CODAH file, see module docstring.

    Returns
    -------
    CodahParseResult
        Valid rows as examples, invalid rows as ``RowError`` with 1-based
        line numbers and every problem of the row joined by ``"; "``.

    Examples
    --------
    >>> result = parse_codah_tsv("q\\tI have 2 cats and 1 dog. I have\\t3 pets.\\t2 pets.\\tno pets.\\tfish.\\t0\\n")
    >>> result.examples[0].label, result.examples[0].categories, result.errors
    (0, ('quantitative',), ())
    >>> parse_codah_tsv("x\\tP\\ta\\tb\\tc\\td\\t7\\n").errors[0].line
    1
    """
    examples: list[MCExample] = []
    errors: list[RowError] = []
    lines: list[int] = []
    # split("\n") rather than splitlines(): the latter also breaks on exotic
    # separators (\x0b, \u2028) that may legitimately occur inside a text.
    for line_number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = raw.removesuffix("\r")
        if not line.strip():
            continue
        example, problems = _parse_row(
            line.split("\t"),
            max_prompt_chars=max_prompt_chars,
            max_choice_chars=max_choice_chars,
            allow_duplicate_choices=allow_duplicate_choices,
        )
        if example is None:
            errors.append(RowError(line=line_number, message="; ".join(problems)))
        else:
            examples.append(example)
            lines.append(line_number)
    return CodahParseResult(examples=tuple(examples), errors=tuple(errors), lines=tuple(lines))


_NAMES = {name: letter for letter, name in CATEGORY_CODES.items()}


def _record_fields(record: object) -> tuple[list[str] | None, list[str]]:
    """A JSON record's values as the 7 fields of a TSV row, or what is wrong with its types."""
    if not isinstance(record, dict):
        return None, ["expected a JSON object with prompt, choices, answer and categories"]
    problems = [f"{key} is missing" for key in ("prompt", "choices", "answer") if key not in record]
    if problems:
        return None, problems
    prompt, choices, answer = record["prompt"], record["choices"], record["answer"]
    categories = record.get("categories") or []
    if not isinstance(prompt, str):
        problems.append("prompt must be text")
    if not isinstance(choices, list) or len(choices) != NUM_CHOICES or not all(isinstance(c, str) for c in choices):
        problems.append(f"choices must be a list of {NUM_CHOICES} texts")
    if isinstance(answer, bool) or not isinstance(answer, int):
        problems.append(f"answer must be the index of the right choice, one of 0, 1, 2, 3, got {answer!r}")
    if not isinstance(categories, list) or not all(isinstance(c, str) for c in categories):
        problems.append("categories must be a list of names")
    if problems:
        return None, problems
    # An unknown category is reported with the row's other problems (the texts are still checked).
    unknown = [c for c in categories if c.lower() not in _NAMES]
    if unknown:
        problems.append(f"unknown category {', '.join(map(repr, unknown))} (allowed: {', '.join(_NAMES)})")
    code = "".join(_NAMES[c.lower()] for c in categories if c.lower() in _NAMES)
    return [code, prompt, *choices, str(answer)], problems


def parse_codah_json(
    text: str,
    *,
    max_prompt_chars: int = 500,
    max_choice_chars: int = 200,
    allow_duplicate_choices: bool = False,
) -> CodahParseResult:
    """Parse and validate questions as JSON: JSON Lines (one object per line, as a round's JSONL
    export writes them) or one JSON array of such objects.

    Each object has ``prompt``, ``choices`` (4 texts), ``answer`` (the right choice's index) and
    optionally ``categories`` (names such as ``"negation"``); other keys (``id``, ``author``, the
    export's ``live_prediction``) are ignored. Every row is checked as :func:`parse_codah_tsv`
    checks a TSV line, with the same messages; in an array, ``line`` counts items (``unit="item"``).

    Examples
    --------
    >>> row = '{"prompt": "He", "choices": ["ran.", "sat.", "sang.", "slept."], "answer": 1, "categories": ["other"]}'
    >>> parse_codah_json(row + "\\n").examples[0].categories
    ('other',)
    >>> parse_codah_json('[{"prompt": "He"}]').errors[0]
    RowError(line=1, message='choices is missing; answer is missing')
    """
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith("["):
        try:
            rows = list(enumerate(json.loads(text), start=1))
        except (ValueError, RecursionError) as error:  # also a number too long to read
            line = getattr(error, "lineno", 1)
            return CodahParseResult((), (RowError(line, f"not valid JSON: {getattr(error, 'msg', error)}"),))
        unit = "item"
    else:
        rows, unit = [], "line"
        for number, raw in enumerate(text.split("\n"), start=1):
            if raw.strip():
                try:
                    rows.append((number, json.loads(raw)))
                except (ValueError, RecursionError) as error:  # also a number too long to read
                    rows.append((number, ValueError(f"not valid JSON: {getattr(error, 'msg', error)}")))
    examples, errors, lines = [], [], []
    for number, record in rows:
        fields, problems = (None, [str(record)]) if isinstance(record, ValueError) else _record_fields(record)
        example = None
        if fields is not None:
            example, more = _parse_row(fields, max_prompt_chars=max_prompt_chars, max_choice_chars=max_choice_chars,
                                       allow_duplicate_choices=allow_duplicate_choices)
            problems = [*problems, *more]
        if example is None or problems:
            errors.append(RowError(line=number, message="; ".join(problems)))
        else:
            examples.append(example)
            lines.append(number)
    return CodahParseResult(examples=tuple(examples), errors=tuple(errors), lines=tuple(lines), unit=unit)


def _format_field(text: str) -> str:
    if "\t" in text or "\n" in text or "\r" in text:
        raise ValueError(f"text cannot be written as CODAH TSV (contains a tab or newline): {text!r}")
    return text


def format_codah_tsv(
    examples: Iterable[MCExample],
    *,
    weights: Sequence[Sequence[float | None]] | None = None,
) -> str:
    """Write examples as CODAH TSV (inverse of :func:`parse_codah_tsv`).

    Categories become their letters (``other`` is ``o``; no category, an empty code);
    every line ends with ``\\n``.

    Parameters
    ----------
    examples : iterable of MCExample
        Labelled questions, one line each.
    weights : sequence of sequences of float or None, optional
        One weight per answer of every example (e.g. reweighting's n·q). Each line then
        gets :data:`~mlcore.configs.NUM_CHOICES` more fields after the index, in answer
        order; ``None`` (an answer without a weight) is written as an empty field. Such
        11-field files are for weighted training: :func:`parse_codah_tsv` reads 7 fields.

    Raises
    ------
    ValueError
        If an example has no label or a text contains a tab or newline, or ``weights``
        does not give one finite number or ``None`` per answer.

    Examples
    --------
    >>> example = MCExample("He", ("ran.", "sat.", "sang.", "slept."), 1, ("other",))
    >>> format_codah_tsv([example])
    'o\\tHe\\tran.\\tsat.\\tsang.\\tslept.\\t1\\n'
    >>> format_codah_tsv([example], weights=[[0.5, 1.25, None, 2.0]])
    'o\\tHe\\tran.\\tsat.\\tsang.\\tslept.\\t1\\t0.5\\t1.25\\t\\t2.0\\n'
    """
    examples = list(examples)
    if weights is not None and len(weights) != len(examples):
        raise ValueError(f"{len(weights)} rows of weights for {len(examples)} examples")
    lines = []
    for number, example in enumerate(examples):
        if example.label is None:
            raise ValueError(f"cannot write an unlabelled example: {example.prompt!r}")
        code = "".join(_LETTER_OF[c] for c in example.categories)
        fields = [code, example.prompt, *example.choices, str(example.label)]
        if weights is not None:
            fields.extend(_weight_fields(weights[number], len(example.choices)))
        lines.append("\t".join(_format_field(f) for f in fields) + "\n")
    return "".join(lines)


def _weight_fields(row: Sequence[float | None], n_choices: int) -> list[str]:
    if len(row) != n_choices:
        raise ValueError(f"{len(row)} weights for {n_choices} answers")
    fields = []
    for weight in row:
        if weight is not None and not math.isfinite(weight):
            raise ValueError(f"a weight must be a finite number or None, got {weight!r}")
        # repr keeps every digit the weight was stored with (the report rounds to 6 decimals).
        fields.append("" if weight is None else repr(float(weight)))
    return fields


def read_codah_file(path: str | Path, **limits: int | bool) -> CodahParseResult:
    """Read a CODAH TSV file (UTF-8); keyword arguments go to :func:`parse_codah_tsv`."""
    return parse_codah_tsv(Path(path).read_text(encoding="utf-8"), **limits)  # type: ignore[arg-type]
