"""Server-side SVG charts: well-formed, escaped, proportional, and clear errors for bad JSON."""
import re
import xml.etree.ElementTree as ET

import pytest

from evaluation.charts import ChartError, render_chart

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def widths(root: ET.Element, css: str) -> list[float]:
    return [float(r.get("width")) for r in root.iter(f"{SVG}rect") if css in (r.get("class") or "")]


class ChartTests:
    def test_bar_lengths_are_proportional_and_text_escaped(self):
        svg = render_chart({"kind": "bar", "title": "Q <per> category", "format": "int",
                            "items": [{"label": "<script>", "value": 4}, {"label": "b", "value": 2}]})
        root = parse(svg)
        assert root.get("role") == "img" and root.find(f"{SVG}title").text == "Q <per> category"
        assert "<script>" not in svg and "&lt;script&gt;" in svg
        first, second = widths(root, "chart-bar")
        assert first == pytest.approx(2 * second)

    def test_grouped_bars_with_reference_and_missing_values(self):
        svg = render_chart({"kind": "grouped_bar", "title": "Accuracy", "format": "percent", "max": 1.0,
                            "reference": {"value": 0.25, "label": "chance"}, "groups": ["idioms", "all"],
                            "series": [{"name": "live", "values": [0.5, 1.0]}, {"name": "humans", "values": [None, 0.75]}]})
        root = parse(svg)
        assert "n/a" in svg and "50.0%" in svg and "chance" in svg
        assert len(list(root.iter(f"{SVG}line"))) == 1
        with pytest.raises(ChartError, match="one value per group"):
            render_chart({"kind": "grouped_bar", "groups": ["a", "b"], "series": [{"name": "x", "values": [1]}]})

    def test_scatter_labels_only_highlighted_points(self):
        svg = render_chart({"kind": "scatter", "title": "Fig 2", "x_label": "uniform", "y_label": "q", "diagonal": True,
                            "points": [{"x": 0.3, "y": 0.1, "label": "nobody"},
                                       {"x": 0.1, "y": 0.2, "label": "sleeping", "highlight": True},
                                       {"x": None, "y": 0.2, "label": "absent"}]})
        root = parse(svg)
        assert len(list(root.iter(f"{SVG}circle"))) == 2
        labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "chart-point-label"]
        assert labels == ["sleeping"]

    def test_diverging_bars_sit_on_either_side_of_zero(self):
        svg = render_chart({"kind": "diverging_bar", "title": "Disparity", "negative_label": "more men",
                            "positive_label": "more women",
                            "items": [{"label": "nurse", "value": 30}, {"label": "pilot", "value": -60}]})
        root = parse(svg)
        zero = float(next(root.iter(f"{SVG}line")).get("x1"))
        positive = next(r for r in root.iter(f"{SVG}rect") if r.get("class") == "chart-positive")
        negative = next(r for r in root.iter(f"{SVG}rect") if r.get("class") == "chart-negative")
        assert float(positive.get("x")) == pytest.approx(zero)
        assert float(negative.get("x")) + float(negative.get("width")) == pytest.approx(zero)
        assert float(negative.get("width")) == pytest.approx(2 * float(positive.get("width")))

    @pytest.mark.parametrize(
        ("chart", "message"),
        [({"kind": "pie"}, "unknown chart kind"), ("bar", "unknown chart kind"),
         ({"kind": "bar", "items": [{"label": "a", "value": "3"}]}, "not a number")],
    )
    def test_bad_chart_json(self, chart, message):
        with pytest.raises(ChartError, match=message):
            render_chart(chart)

    def test_empty_charts_still_render(self):
        for kind in ("bar", "grouped_bar", "scatter", "diverging_bar"):
            assert re.match(r"<svg ", render_chart({"kind": kind, "title": "empty"}))
