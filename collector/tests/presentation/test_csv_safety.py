"""``spreadsheet_safe``: text a spreadsheet would run gets an apostrophe; anything else is unchanged."""
import csv
import io

import pytest

from collector.presentation.csv_safety import FORMULA_TRIGGERS, spreadsheet_safe


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1+2", "@SUM(A1)", "\t=1", "\r=1", '=HYPERLINK("http://x")'])
def test_formula_text_is_prefixed(text):
    assert spreadsheet_safe(text) == "'" + text


@pytest.mark.parametrize("cell", ["alice", "", "Brown, Bob", " =1", "'=1", "a=b", 3, -1.5, 0.0, True])
def test_everything_else_is_unchanged(cell):
    assert spreadsheet_safe(cell) == cell and type(spreadsheet_safe(cell)) is type(cell)


def test_the_triggers_are_owasps():
    # OWASP "CSV Injection": = + - @, tab (0x09) and carriage return (0x0D).
    assert set(FORMULA_TRIGGERS) == {"=", "+", "-", "@", "\t", "\r"}


def test_a_written_and_parsed_cell_reads_back_as_the_original_text():
    out = io.StringIO()
    csv.writer(out).writerow([spreadsheet_safe(text) for text in ("\r=1", "=A1,B1")])
    assert next(csv.reader(io.StringIO(out.getvalue()))) == ["'\r=1", "'=A1,B1"]
