"""The layout every report section is stored in, and its CSV/JSON export (no Django models).

A section is plain JSON::

    {"title": str, "available": bool, "note": str,
     "summary": {key: scalar},
     "tables": {name: {"title": str, "columns": [str], "rows": [[scalar]]}},
     "charts": {name: {"kind": "bar" | "grouped_bar" | "scatter" | "diverging_bar", ...}}}

Because every table has the same shape, one view downloads any table as CSV and one chart
renderer (``core/charts.py``) draws any chart; the ambiguity probes
(``evaluation/services/ambiguity.py``) return sections in this layout too. A report's builder
reads frozen inputs (a :class:`ReportInputs`) and reports its progress through a :data:`Progress`.
"""
from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from core.csv_safety import SpreadsheetWriter

SCALAR_TYPES = (str, int, float, bool, type(None))
CHART_KINDS = ("bar", "grouped_bar", "scatter", "diverging_bar")
# Progress callback: (stage text, fraction done in [0, 1]).
Progress = Callable[[str, float], None]


class SectionError(ValueError):
    """A section does not follow the layout above."""


@dataclass(frozen=True)
class ReportInputs:
    """Everything a report reads, read before it is computed (subclasses add the fields)."""

    def digest(self) -> str:
        """sha256 of everything the report reads, so two reports can be told apart by their data."""
        payload = json.dumps(asdict(self), sort_keys=True, default=str, separators=(",", ":"))
        return hashlib.sha256(payload.encode()).hexdigest()


def table(title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> dict:
    """A table with JSON-safe cells (NaN and infinities become ``None``)."""
    rows = [[clean_scalar(value) for value in row] for row in rows]
    for row in rows:
        if len(row) != len(columns):
            raise SectionError(f"table {title!r}: a row has {len(row)} cells for {len(columns)} columns")
    return {"title": title, "columns": list(columns), "rows": rows}


def section(
    title: str,
    *,
    summary: Mapping[str, Any] | None = None,
    tables: Mapping[str, dict] | None = None,
    charts: Mapping[str, dict] | None = None,
    note: str = "",
    available: bool = True,
) -> dict:
    """A section dict; see the module docstring."""
    return {
        "title": title,
        "available": available,
        "note": note,
        "summary": {key: clean_scalar(value) for key, value in (summary or {}).items()},
        "tables": dict(tables or {}),
        "charts": dict(charts or {}),
    }


def unavailable(title: str, note: str) -> dict:
    """A section with nothing to show yet and the reason (shown as the empty state)."""
    return section(title, note=note, available=False)


def clean_scalar(value: Any) -> Any:
    """``value`` as a JSON scalar: numpy numbers to Python ones, NaN/inf to ``None``."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()  # numpy scalar
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if not isinstance(value, SCALAR_TYPES):
        raise SectionError(f"not a JSON scalar: {value!r}")
    return value


def _check_json(value: Any, where: str) -> None:
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise SectionError(f"{where}: key {key!r} is not a string")
            _check_json(item, f"{where}.{key}")
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _check_json(item, f"{where}[{index}]")
    elif isinstance(value, float) and not math.isfinite(value):
        raise SectionError(f"{where}: NaN or infinity is not JSON (use None)")
    elif not isinstance(value, SCALAR_TYPES):
        raise SectionError(f"{where}: {type(value).__name__} is not JSON")


def check_section(name: str, value: Any) -> dict:
    """Validate a section (ours or a probe's) before it is stored; returns it unchanged."""
    if not isinstance(value, Mapping):
        raise SectionError(f"section {name!r} is not a dict")
    if not isinstance(value.get("title"), str) or not value["title"]:
        raise SectionError(f"section {name!r} has no title")
    for key in ("summary", "tables", "charts"):
        if not isinstance(value.get(key, {}), Mapping):
            raise SectionError(f"section {name!r}: {key} must be a dict")
    for table_name, item in value.get("tables", {}).items():
        if not isinstance(item, Mapping) or not isinstance(item.get("columns"), list) or not isinstance(item.get("rows"), list):
            raise SectionError(f"section {name!r}: table {table_name!r} needs 'columns' and 'rows' lists")
        if any(not isinstance(row, list) or len(row) != len(item["columns"]) for row in item["rows"]):
            raise SectionError(f"section {name!r}: table {table_name!r} has a row that does not match its columns")
    for chart_name, chart in value.get("charts", {}).items():
        if not isinstance(chart, Mapping) or chart.get("kind") not in CHART_KINDS:
            raise SectionError(f"section {name!r}: chart {chart_name!r} needs a kind in {', '.join(CHART_KINDS)}")
    _check_json(dict(value), name)
    return dict(value)


def table_csv(item: Mapping[str, Any]) -> str:
    """One table as CSV text: a header row, then the rows (``None`` as an empty cell)."""
    out = io.StringIO()
    # Features and prompts are user text: a cell a spreadsheet would run gets an apostrophe.
    writer = SpreadsheetWriter(out)
    writer.writerow(item["columns"])
    writer.writerows(item["rows"])
    return out.getvalue()
