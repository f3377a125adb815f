"""``spreadsheet_safe``: text a spreadsheet would run gets an apostrophe; anything else is unchanged."""
import csv
import io
import re
from pathlib import Path

import pytest

from core.csv_safety import FORMULA_TRIGGERS, SpreadsheetWriter, spreadsheet_safe
from mlcore.configs import MCExample
from mlcore.data.codah import format_codah_tsv


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


def test_the_writer_guards_every_cell_and_writes_none_as_empty():
    out = io.StringIO()
    writer = SpreadsheetWriter(out, lineterminator="\r\n")
    writer.writerow(["=header", "ok"])
    writer.writerows([["+cmd|' /C calc'!A0", None], [-1.5, "@x"]])
    assert out.getvalue() == "'=header,ok\r\n'+cmd|' /C calc'!A0,\r\n-1.5,'@x\r\n"


def test_every_csv_the_product_writes_goes_through_the_one_guard():
    # One guard: a csv writer anywhere else in the apps would write formulas raw.
    root = Path(__file__).resolve().parents[2]
    apps = ("core", "accounts", "courses", "modelhub", "collector", "annotation", "evaluation", "lti", "inbox")
    writers = [f"{path.relative_to(root)}:{number}"
               for app in apps for path in (root / app).rglob("*.py") if "tests" not in path.parts
               for number, line in enumerate(path.read_text().splitlines(), 1)
               if re.search(r"\bcsv\.(writer|DictWriter)\(", line) and path != root / "core" / "csv_safety.py"]
    assert writers == []


def test_dataset_files_for_researchers_stay_byte_faithful():
    # CODAH TSV (and the HF dataset) are read by code, not spreadsheets: no apostrophe (docs/release.md).
    example = MCExample(prompt="=1+1 is", choices=("+2", "-2", "@2", "two"), label=0, categories=())
    assert format_codah_tsv([example]).split("\t")[1:6] == ["=1+1 is", "+2", "-2", "@2", "two"]
