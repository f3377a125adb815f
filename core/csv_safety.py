"""CSV cells that a spreadsheet opens as text, never as a formula (OWASP "CSV Injection").

Spreadsheets run a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula, and also one
that starts with a tab or carriage return followed by such a character. Names, sections, features,
prompts and chart labels in our CSV files are typed by users, so every CSV the product writes for
spreadsheets (grade files, report and leaderboard tables, the charts' CSV downloads) goes through
:func:`spreadsheet_safe`, usually by writing with :class:`SpreadsheetWriter`: such text gets a
leading apostrophe (shown by the spreadsheet, not run).

Dataset files for researchers (CODAH TSV, the Hugging Face dataset) are not for spreadsheets and
stay byte-faithful: a prompt that starts with ``=`` is written as it is (docs/release.md).
"""
import csv
from collections.abc import Iterable
from typing import Any, TextIO

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: Any) -> Any:
    """``cell`` unchanged, or with a leading ``'`` when it is text a spreadsheet would run.

    Numbers stay numbers (a negative number is not a formula); only strings are guarded.

    Examples
    --------
    >>> spreadsheet_safe("=HYPERLINK(\\"http://x\\")"), spreadsheet_safe("bob"), spreadsheet_safe(-1.5)
    ('\\'=HYPERLINK("http://x")', 'bob', -1.5)
    """
    if isinstance(cell, str) and cell[:1] in FORMULA_TRIGGERS:
        return "'" + cell
    return cell


class SpreadsheetWriter:
    """``csv.writer`` whose every cell (the header's too) goes through :func:`spreadsheet_safe`;
    ``None`` is written as an empty cell."""

    def __init__(self, out: TextIO, *, lineterminator: str = "\n"):
        self._writer = csv.writer(out, lineterminator=lineterminator)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow(["" if cell is None else spreadsheet_safe(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)
