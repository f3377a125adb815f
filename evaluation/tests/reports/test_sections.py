"""The stored section layout: JSON-safe tables, validation of probes' sections, CSV export."""
import math

import numpy as np
import pytest

from evaluation.reports.sections import SectionError, check_section, section, table, table_csv, unavailable


class SectionLayoutTests:
    def test_table_cells_become_plain_json(self):
        item = table("T", ["a", "b", "c"], [[np.int64(3), np.float64(0.5), math.nan], [None, True, "x"]])
        assert item == {"title": "T", "columns": ["a", "b", "c"], "rows": [[3, 0.5, None], [None, True, "x"]]}
        assert type(item["rows"][0][0]) is int

    def test_row_width_must_match(self):
        with pytest.raises(SectionError, match="2 cells for 3 columns"):
            table("T", ["a", "b", "c"], [[1, 2]])

    def test_non_scalar_cells_are_refused(self):
        with pytest.raises(SectionError, match="not a JSON scalar"):
            table("T", ["a"], [[{"nested": 1}]])

    def test_section_and_unavailable(self):
        value = section("S", summary={"p": math.inf, "n": np.int32(4)}, tables={"t": table("T", ["a"], [[1]])})
        assert value["summary"] == {"p": None, "n": 4} and value["available"] is True
        assert check_section("s", value) == value
        assert unavailable("S", "why")["available"] is False and unavailable("S", "why")["note"] == "why"

    @pytest.mark.parametrize(
        ("value", "message"),
        [
            ([], "not a dict"),
            ({"title": ""}, "no title"),
            ({"title": "x", "tables": {"t": {"columns": ["a"]}}}, "needs 'columns' and 'rows'"),
            ({"title": "x", "tables": {"t": {"columns": ["a"], "rows": [[1, 2]]}}}, "does not match"),
            ({"title": "x", "charts": {"c": {"kind": "pie"}}}, "needs a kind"),
            ({"title": "x", "summary": {"p": float("nan")}}, "NaN"),
            ({"title": "x", "summary": {1: 2}}, "not a string"),
            ({"title": "x", "summary": {"v": np.float64(1.0).tobytes()}}, "not JSON"),
        ],
    )
    def test_probe_sections_are_validated(self, value, message):
        with pytest.raises(SectionError, match=message):
            check_section("probe", value)

    def test_csv(self):
        text = table_csv(table("T", ["feature", "z"], [["nobody", 2.0], ["=cmd()", None], ['say "hi", ok', 1]]))
        assert text.splitlines() == ["feature,z", "nobody,2.0", "'=cmd(),", '"say ""hi"", ok",1']
