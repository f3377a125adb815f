"""Reading labelled text files for the lexical-artifact commands (SPEC-bias §1-3).

Formats (validated strictly; every problem is reported with its line number and nothing is
returned unless the whole file is good):

* labelled TSV: a header row naming the columns ``text_a``, ``text_b`` and ``label`` (any
  order; other columns are ignored), then one instance per row. ``text_b`` may be empty (single
  texts); ``text_a`` and ``label`` may not. No quoting: GLUE-style TSV, a ``"`` is text.
* predictions: one label per line, in the order of the evaluation file's rows.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "LabelledFileError",
    "LabelledTexts",
    "parse_labelled_tsv",
    "parse_picks",
    "parse_predictions",
    "read_labelled_tsv",
    "check_labels_known",
    "read_picks",
    "read_predictions",
    "read_text_file",
]

REQUIRED_COLUMNS = ("text_a", "text_b", "label")
_MAX_REPORTED = 20


class LabelledFileError(ValueError):
    """A labelled or prediction file is malformed; ``problems`` lists ``(line, message)``."""

    def __init__(self, source: str, problems: Sequence[tuple[int, str]]):
        self.source = source
        self.problems = list(problems)
        shown = [f"  line {line}: {message}" if line else f"  {message}" for line, message in self.problems[:_MAX_REPORTED]]
        more = len(self.problems) - _MAX_REPORTED
        tail = [f"  ... and {more} more"] if more > 0 else []
        super().__init__("\n".join([f"{source}: {len(self.problems)} problem(s), nothing was read:", *shown, *tail]))


@dataclass(frozen=True)
class LabelledTexts:
    """Instances of a labelled split: first and second segment (``""`` if absent) and label."""

    text_a: tuple[str, ...]
    text_b: tuple[str, ...]
    labels: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def has_pairs(self) -> bool:
        """Whether any instance has a second segment."""
        return any(self.text_b)

    def label_set(self) -> tuple[str, ...]:
        """Labels that occur, in code-point order (the declared set of a file without a config)."""
        return tuple(sorted(set(self.labels)))


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LabelledFileError(source, [(0, f"not UTF-8 text (byte {error.start})")]) from None


def _header_positions(header: list[str], source: str) -> dict[str, int]:
    names = [name.strip() for name in header]
    missing = [name for name in REQUIRED_COLUMNS if name not in names]
    if missing:
        raise LabelledFileError(
            source, [(1, f"the header must name the columns {', '.join(REQUIRED_COLUMNS)}; missing {', '.join(missing)}"
                         f" (found: {', '.join(repr(n) for n in names) or 'nothing'})")]
        )
    duplicated = sorted({name for name in names if names.count(name) > 1 and name in REQUIRED_COLUMNS})
    if duplicated:
        raise LabelledFileError(source, [(1, f"column {', '.join(duplicated)} appears twice in the header")])
    return {name: names.index(name) for name in REQUIRED_COLUMNS}


def parse_labelled_tsv(text: str, *, source: str = "<text>") -> LabelledTexts:
    """Parse a labelled TSV (see the module docstring).

    Examples
    --------
    >>> data = parse_labelled_tsv("text_a\\ttext_b\\tlabel\\nA dog runs.\\tAn animal moves.\\tE\\nNobody.\\t\\tC\\n")
    >>> data.labels, data.text_b, data.label_set()
    (('E', 'C'), ('An animal moves.', ''), ('C', 'E'))
    """
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter="\t", quoting=csv.QUOTE_NONE))
    if not rows:
        raise LabelledFileError(source, [(0, "the file is empty; expected a header row text_a, text_b, label")])
    column = _header_positions(rows[0], source)
    width = len(rows[0])
    text_a, text_b, labels, problems = [], [], [], []
    for line, row in enumerate(rows[1:], start=2):
        if not row or row == [""]:
            problems.append((line, "empty line"))
            continue
        if len(row) != width:
            problems.append((line, f"{len(row)} tab-separated field(s), the header has {width}"))
            continue
        label = row[column["label"]].strip()
        if not label:
            problems.append((line, "the label is empty"))
        if not row[column["text_a"]].strip():
            problems.append((line, "text_a is empty"))
        text_a.append(row[column["text_a"]])
        text_b.append(row[column["text_b"]])
        labels.append(label)
    if problems:
        raise LabelledFileError(source, problems)
    if not labels:
        raise LabelledFileError(source, [(0, "the file has a header but no instances")])
    return LabelledTexts(tuple(text_a), tuple(text_b), tuple(labels))


def read_labelled_tsv(path: str | Path) -> LabelledTexts:
    """:func:`parse_labelled_tsv` of a file; a missing or unreadable file is a ``LabelledFileError``."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise LabelledFileError(str(path), [(0, f"cannot read the file ({error.strerror or error})")]) from None
    return parse_labelled_tsv(_decode(data, str(path)), source=str(path))


def parse_predictions(text: str, *, n_expected: int, source: str = "<text>") -> tuple[str, ...]:
    """One label per line (surrounding spaces ignored); exactly ``n_expected`` lines.

    A single final newline is allowed; an empty line inside the file is an error, because
    it would shift every later prediction onto the wrong instance.

    Examples
    --------
    >>> parse_predictions("E\\nC\\n", n_expected=2)
    ('E', 'C')
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [line.rstrip("\r").strip() for line in lines]
    problems = [(number, "empty line (one label per line, in test-file order)")
                for number, line in enumerate(lines, start=1) if not line]
    if len(lines) != n_expected:
        problems.insert(0, (0, f"{len(lines)} prediction(s) for {n_expected} test instance(s)"))
    if problems:
        raise LabelledFileError(source, problems)
    return tuple(lines)


def read_predictions(path: str | Path, *, n_expected: int) -> tuple[str, ...]:
    """:func:`parse_predictions` of a file."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise LabelledFileError(str(path), [(0, f"cannot read the file ({error.strerror or error})")]) from None
    return parse_predictions(_decode(data, str(path)), n_expected=n_expected, source=str(path))


def check_labels_known(labels: Iterable[str], label_set: Sequence[str], *, source: str) -> None:
    """Every gold label of an evaluation split must be in the training label set."""
    known = set(label_set)
    problems = [(line, f"label {label!r} does not occur in the training data ({', '.join(label_set)})")
                for line, label in enumerate(labels, start=2) if label not in known]
    if problems:
        raise LabelledFileError(source, problems)


def parse_picks(text: str, *, n_expected: int, n_choices: int, source: str = "<text>") -> tuple[int, ...]:
    """A forced-choice model's picks: one answer index ``0 .. n_choices-1`` per line, ``n_expected`` lines.

    Examples
    --------
    >>> parse_picks("0\\n3\\n", n_expected=2, n_choices=4)
    (0, 3)
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    allowed = {str(i): i for i in range(n_choices)}
    problems = []
    for number, line in enumerate(lines, start=1):
        value = line.rstrip("\r").strip()
        if value not in allowed:
            what = "empty line" if not value else f"{value!r} is not an answer index"
            problems.append((number, f"{what} (one of {', '.join(allowed)} per line, in test-file order)"))
    if len(lines) != n_expected:
        problems.insert(0, (0, f"{len(lines)} pick(s) for {n_expected} test question(s)"))
    if problems:
        raise LabelledFileError(source, problems)
    return tuple(allowed[line.rstrip("\r").strip()] for line in lines)


def read_picks(path: str | Path, *, n_expected: int, n_choices: int) -> tuple[int, ...]:
    """:func:`parse_picks` of a file."""
    return parse_picks(read_text_file(path), n_expected=n_expected, n_choices=n_choices, source=str(path))


def read_text_file(path: str | Path) -> str:
    """A UTF-8 file's text; unreadable or not UTF-8 is a ``LabelledFileError``."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise LabelledFileError(str(path), [(0, f"cannot read the file ({error.strerror or error})")]) from None
    return _decode(data, str(path))
