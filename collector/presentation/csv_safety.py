"""CSV cells that a spreadsheet opens as text, never as a formula (OWASP "CSV Injection").

Spreadsheets run a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula, and also one
that starts with a tab or carriage return followed by such a character. Names, sections, features
and prompts in our CSV files are typed by users, so every CSV writer passes its cells through
:func:`spreadsheet_safe`, which prefixes such text with an apostrophe (shown by the spreadsheet,
not run). Plain Python, no Django: the evaluation exports and the grade files both use it.
"""
from typing import Any

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
