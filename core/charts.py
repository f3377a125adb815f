"""The one chart module: Vega-Lite specs (plain dicts) built from a chart's JSON, drawn in the browser.

The reports store charts as small JSON documents (``evaluation/sections.py``); the quality page and
the annotation dashboard build the same documents. ``chart_view(name, chart)`` turns one into what a
page shows (``templates/includes/chart.html``): a Vega-Lite spec that ``static/js/charts.js`` embeds
with the vendored vega-embed, the same numbers as an accessible table beside it, and CSV/JSON
downloads of the chart's data. Kinds (``chart["kind"]``):

* ``bar``: ``{"items": [{"label", "value", "low"?, "high"?, "detail"?}], "max"?, "reference"?: {"value",
  "label"}}``; ``low``/``high`` draw an interval, ``detail`` is extra tooltip text
* ``grouped_bar``: ``{"groups": [label], "series": [{"name", "values": [number | None]}], "max"?,
  "reference"?}`` (a missing value is left out of the chart and shown as "—" in the table)
* ``scatter``: ``{"points": [{"x", "y", "label", "highlight"?}], "diagonal"?: bool, "highlight_label"?,
  "other_label"?}``; only the top highlighted points are labelled (:func:`top_points`), the rest
  have tooltips
* ``diverging_bar``: ``{"items": [{"label", "value"}], "negative_label", "positive_label"}``

Every chart has ``title``; optional ``x_label``/``y_label`` (axis titles), ``value_label`` (the
legend's name for the values) and ``format``: ``"percent"`` (0-1 shown with one decimal), ``"int"``
or ``"float"``. Charts stored by older runs lack the optional keys and get defaults.
"""
from __future__ import annotations

import io
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django.utils.translation import gettext

from core.csv_safety import SpreadsheetWriter

SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"  # an identifier: vega-embed never fetches it
WIDTH = 480  # plot width of every chart, in CSS pixels
STEP = 22  # height of one bar row
SCATTER_HEIGHT = 320
TITLE_CHARS = 60  # a longer title puts its trailing remark in the subtitle
TOP_LABELS = 6  # at most this many points of a scatter carry a text label
PALETTE = ["#3b6fd4", "#d9822b", "#2e8b57", "#9b59b6", "#6b7280"]
REFERENCE_COLOR = "#a12a1a"
FORMATS = {"percent": ".1%", "int": ",d", "float": ".3~f"}  # tooltips: the exact number, as in the table
AXIS_FORMATS = {"percent": ".0%", "int": ",d", "float": ".3~f"}
# One look for every chart: the same font, sizes and legend place on every page.
CONFIG = {
    "font": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    "title": {"fontSize": 14, "fontWeight": 600, "anchor": "start", "offset": 10, "subtitleFontSize": 12,
              "subtitleColor": "#5a6272"},
    "axis": {"labelFontSize": 12, "titleFontSize": 12, "titleFontWeight": 600, "labelLimit": 170,
             "gridColor": "#e5e7eb"},
    "legend": {"labelFontSize": 12, "titleFontSize": 12, "orient": "bottom", "direction": "horizontal",
               "labelLimit": 260},
    "text": {"fontSize": 11},
    "view": {"stroke": None},
}


class ChartError(ValueError):
    """Chart JSON that cannot be drawn."""


@dataclass(frozen=True)
class ChartView:
    """One chart as a page shows it."""

    dom_id: str
    title: str
    spec: dict
    columns: list[str]
    rows: list[list[str]]  # formatted for people, like the chart's tooltips
    data: list[dict]  # raw numbers: the downloads

    @property
    def spec_id(self) -> str:
        return f"{self.dom_id}-spec"

    @property
    def csv_href(self) -> str:
        # Labels are user text (features, names): the download is guarded as every CSV we write.
        out = io.StringIO()
        # Every key of any row, in order of appearance: a bar's optional "detail" may start later.
        fields = list(dict.fromkeys(key for row in self.data for key in row)) or ["label"]
        writer = SpreadsheetWriter(out)
        writer.writerow(fields)
        writer.writerows([row.get(name) for name in fields] for row in self.data)
        return "data:text/csv;charset=utf-8," + quote(out.getvalue())

    @property
    def json_href(self) -> str:
        return "data:application/json;charset=utf-8," + quote(json.dumps(self.data, indent=1))


def format_number(value: float | None, fmt: str) -> str:
    """A chart number for people, the same way the chart's tooltips show it."""
    if value is None:
        return "—"
    if fmt == "percent":
        return f"{100 * value:.1f}%"
    if fmt == "int":
        return f"{value:,.0f}"
    return f"{value:.3f}".rstrip("0").rstrip(".") if value % 1 else f"{value:.0f}"


def _number(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ChartError(f"{where}: {value!r} is not a number")
    if not math.isfinite(value):
        return None
    return float(value)


def _value_axis(chart: Mapping, field: str, *, title: str, maximum: float | None = None) -> dict:
    fmt = chart.get("format", "float")
    scale: dict = {"zero": True}
    if maximum is not None:
        scale["domainMax"] = maximum
    axis: dict = {"format": AXIS_FORMATS.get(fmt, ".3~f"), "labelOverlap": True, "tickCount": 5}
    if fmt == "int":
        # Counts have no ticks between integers: without this, a range of -1..0 gets ticks at
        # -1, -0.8, ... that the integer format prints as "-1 -1 -1 0 0 0".
        axis["tickMinStep"] = 1
    return {"field": field, "type": "quantitative", "title": title, "scale": scale, "axis": axis}


def _tooltip(chart: Mapping, *fields: tuple[str, str, str]) -> list[dict]:
    """``(field, title, kind)`` with kind ``"value"`` (the chart's format), ``"int"`` or ``"text"``."""
    fmt = FORMATS.get(chart.get("format", "float"), ".3~f")
    out = []
    for field, title, kind in fields:
        if kind == "text":
            out.append({"field": field, "type": "nominal", "title": title})
        else:
            out.append({"field": field, "type": "quantitative", "title": title, "format": fmt if kind == "value" else ",d"})
    return out


def _title(chart: Mapping) -> dict:
    """Title, with a long trailing remark ("…; …" or "… (…)") moved to a subtitle so nothing is cut."""
    text = str(chart.get("title") or "Chart")
    subtitle = str(chart.get("subtitle") or "")
    if not subtitle and len(text) > TITLE_CHARS:
        for mark, end in (("; ", ""), (" (", ")")):
            head, found, tail = text.partition(mark)
            if found and (not end or tail.endswith(end)):
                text, subtitle = head, tail.removesuffix(end)
                break
    return {"text": text, **({"subtitle": subtitle} if subtitle else {})}


def _spec(chart: Mapping, layers: list[dict], data: list[dict], *, height: float | dict) -> dict:
    return {
        "$schema": SCHEMA,
        "title": _title(chart),
        "width": WIDTH,
        "height": height,
        "data": {"values": data},
        "layer": layers,
        "config": CONFIG,
    }


def _color(domain: list[str], title: str | None = None) -> dict:
    colors = [REFERENCE_COLOR if name.startswith("reference: ") else PALETTE[i % len(PALETTE)]
              for i, name in enumerate(domain)]
    return {"field": "series", "type": "nominal", "title": title,
            "scale": {"domain": domain, "range": colors}, "legend": {"symbolType": "square"}}


def _reference_layer(chart: Mapping, domain: list[str], axis: str) -> tuple[list[dict], list[str]]:
    reference = chart.get("reference")
    if not reference:
        return [], domain
    value = _number(reference.get("value"), "reference")
    name = f"reference: {reference.get('label') or 'reference'} ({format_number(value, chart.get('format', 'float'))})"
    layer = {"data": {"values": [{"series": name, "reference": value}]},
             "mark": {"type": "rule", "strokeDash": [5, 4], "strokeWidth": 2},
             "encoding": {axis: {"field": "reference", "type": "quantitative"}, "color": {"field": "series", "type": "nominal"},
                          "tooltip": [{"field": "series", "type": "nominal", "title": "Reference"}]}}
    return [layer], [*domain, name]


def bar_spec(chart: Mapping) -> tuple[dict, list[dict]]:
    value_label = str(chart.get("value_label") or chart.get("x_label") or "value")
    data = []
    for item in chart.get("items") or []:
        row = {"label": str(item.get("label", "")), "series": value_label, "value": _number(item.get("value"), "bar value")}
        if "low" in item or "high" in item:
            row["low"], row["high"] = _number(item.get("low"), "low"), _number(item.get("high"), "high")
        if item.get("detail"):
            row["detail"] = str(item["detail"])
        data.append(row)
    has_interval = any(row.get("low") is not None for row in data)
    tooltip = _tooltip(chart, ("label", str(chart.get("y_label") or "Category"), "text"), ("value", value_label, "value"))
    if has_interval:
        tooltip += _tooltip(chart, ("low", "Interval from", "value"), ("high", "Interval to", "value"))
    if any("detail" in row for row in data):
        tooltip += _tooltip(chart, ("detail", "Details", "text"))
    y = {"field": "label", "type": "nominal", "title": str(chart.get("y_label") or "Category"), "sort": None}
    x = _value_axis(chart, "value", title=str(chart.get("x_label") or value_label), maximum=_number(chart.get("max"), "max"))
    domain = [value_label]
    layers: list[dict] = [{"mark": {"type": "bar", "height": {"band": 0.7}},
                           "encoding": {"y": y, "x": x, "color": {}, "tooltip": tooltip}}]
    if has_interval:
        interval = "95% interval"
        layers.append({"transform": [{"filter": "datum.low != null"}, {"calculate": f"'{interval}'", "as": "series"}],
                       "mark": {"type": "rule", "strokeWidth": 2},
                       "encoding": {"y": y, "x": {"field": "low", "type": "quantitative"}, "x2": {"field": "high"},
                                    "color": {"field": "series", "type": "nominal"}, "tooltip": tooltip}})
        domain.append(interval)
    references, domain = _reference_layer(chart, domain, "x")
    layers += references
    layers[0]["encoding"]["color"] = _color(domain)
    return _spec(chart, layers, data, height={"step": STEP}), data


def grouped_bar_spec(chart: Mapping) -> tuple[dict, list[dict]]:
    groups, series = [str(g) for g in chart.get("groups") or []], chart.get("series") or []
    data = []
    for item in series:
        values = item.get("values") or []
        if len(values) != len(groups):
            raise ChartError("every series needs one value per group")
        for group, value in zip(groups, values):
            data.append({"label": group, "series": str(item.get("name", "")), "value": _number(value, "series value")})
    value_label = str(chart.get("value_label") or chart.get("x_label") or "value")
    names = [str(item.get("name", "")) for item in series]
    y = {"field": "label", "type": "nominal", "title": str(chart.get("y_label") or "Category"), "sort": groups}
    tooltip = _tooltip(chart, ("label", str(chart.get("y_label") or "Group"), "text"), ("series", "Series", "text"),
                       ("value", value_label, "value"))
    bars = {"transform": [{"filter": "datum.value != null"}],
            "mark": {"type": "bar", "height": {"band": 0.85}},
            "encoding": {"y": y, "yOffset": {"field": "series", "type": "nominal", "sort": names},
                         "x": _value_axis(chart, "value", title=str(chart.get("x_label") or value_label),
                                          maximum=_number(chart.get("max"), "max")),
                         "color": {}, "tooltip": tooltip}}
    references, domain = _reference_layer(chart, names, "x")
    bars["encoding"]["color"] = _color(domain)
    height = {"step": max(8, STEP * 3 // max(len(names), 1))}
    return _spec(chart, [bars, *references], data, height=height), data


def top_points(points: Sequence[Mapping], *, limit: int = TOP_LABELS, spacing: float = 0.05) -> set[int]:
    """Indexes of the scatter points that get a text label: highlighted points farthest from the
    diagonal first, at most ``limit``, and never two within ``spacing`` (a share of the axis range)
    of each other, so labels cannot pile up on points that sit on top of each other."""
    scored = [(abs(p["y"] - p["x"]), i) for i, p in enumerate(points)
              if p.get("highlight") and p.get("x") is not None and p.get("y") is not None]
    values = [v for p in points for v in (p.get("x"), p.get("y")) if v is not None]
    span = (max(values) - min(min(values), 0.0)) if values else 1.0
    chosen: list[int] = []
    for _, i in sorted(scored, key=lambda item: (-item[0], str(points[item[1]].get("label", "")))):
        if len(chosen) == limit:
            break
        if all(math.dist((points[i]["x"], points[i]["y"]), (points[j]["x"], points[j]["y"])) > spacing * span
               for j in chosen):
            chosen.append(i)
    return set(chosen)


def scatter_spec(chart: Mapping) -> tuple[dict, list[dict]]:
    points = [{"label": str(p.get("label", "")), "x": _number(p.get("x"), "x"), "y": _number(p.get("y"), "y"),
               "highlight": bool(p.get("highlight"))} for p in chart.get("points") or []]
    points = [p for p in points if p["x"] is not None and p["y"] is not None]
    labelled = top_points(points)
    hot, cold = str(chart.get("highlight_label") or "highlighted"), str(chart.get("other_label") or "other points")
    data = [{**p, "series": hot if p["highlight"] else cold, "labelled": i in labelled} for i, p in enumerate(points)]
    x_title, y_title = str(chart.get("x_label") or "x"), str(chart.get("y_label") or "y")
    top = max([max(p["x"], p["y"]) for p in points] + [1e-12]) * 1.05
    low = min([min(p["x"], p["y"]) for p in points] + [0.0]) * 1.05  # 0 unless a value is negative
    x = {"field": "x", "type": "quantitative", "title": x_title, "scale": {"domain": [low, top], "nice": False},
         "axis": {"format": ".2~f", "labelOverlap": True, "tickCount": 5}}
    y = {"field": "y", "type": "quantitative", "title": y_title, "scale": {"domain": [low, top], "nice": False},
         "axis": {"format": ".2~f", "labelOverlap": True, "tickCount": 5}}
    fmt = {"format": ".4~f"}
    tooltip = [{"field": "label", "type": "nominal", "title": gettext("Point")}, {"field": "x", "type": "quantitative", "title": x_title, **fmt},
               {"field": "y", "type": "quantitative", "title": y_title, **fmt}]
    domain = [cold, hot]
    layers: list[dict] = [
        {"mark": {"type": "point", "filled": True, "size": 60, "opacity": 0.75},
         "encoding": {"x": x, "y": y, "color": _color(domain), "tooltip": tooltip}},
        {"transform": [{"filter": "datum.labelled"}],
         "mark": {"type": "text", "align": "left", "dx": 7, "dy": -7, "fontWeight": 600, "limit": 140},
         "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"},
                      "text": {"field": "label"}, "tooltip": tooltip}},
    ]
    if chart.get("diagonal", True):
        layers.append({"data": {"values": [{"x": 0, "y": 0}, {"x": top, "y": top}]},
                       "mark": {"type": "line", "strokeDash": [5, 4], "color": REFERENCE_COLOR, "strokeWidth": 1.5,
                                "tooltip": False},
                       "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"}}})
    rows = [{key: p[key] for key in ("label", "x", "y", "highlight")} for p in data]
    return _spec(chart, layers, data, height=SCATTER_HEIGHT), rows


def diverging_bar_spec(chart: Mapping) -> tuple[dict, list[dict]]:
    negative, positive = str(chart.get("negative_label") or "negative"), str(chart.get("positive_label") or "positive")
    data = []
    for item in chart.get("items") or []:
        value = _number(item.get("value"), "value") or 0.0
        data.append({"label": str(item.get("label", "")), "value": value, "series": positive if value >= 0 else negative})
    value_label = str(chart.get("value_label") or chart.get("x_label") or f"{positive} minus {negative}")
    y = {"field": "label", "type": "nominal", "title": str(chart.get("y_label") or "Category"), "sort": None}
    layer = {"mark": {"type": "bar", "height": {"band": 0.7}},
             "encoding": {"y": y, "x": _value_axis(chart, "value", title=value_label), "color": _color([negative, positive]),
                          "tooltip": _tooltip(chart, ("label", str(chart.get("y_label") or "Item"), "text"),
                                              ("value", value_label, "value"))}}
    zero = {"data": {"values": [{"zero": 0}]}, "mark": {"type": "rule", "color": "#5a6272"},
            "encoding": {"x": {"field": "zero", "type": "quantitative"}}}
    return _spec(chart, [layer, zero], data, height={"step": STEP}), data


BUILDERS = {
    "bar": bar_spec,
    "grouped_bar": grouped_bar_spec,
    "scatter": scatter_spec,
    "diverging_bar": diverging_bar_spec,
}


def chart_spec(chart: Mapping[str, Any]) -> dict:
    """The Vega-Lite spec of one chart JSON (see the module docstring)."""
    return _build(chart)[0]


def _build(chart: Any) -> tuple[dict, list[dict]]:
    builder = BUILDERS.get(chart.get("kind")) if isinstance(chart, Mapping) else None
    if builder is None:
        raise ChartError(f"unknown chart kind {chart.get('kind') if isinstance(chart, Mapping) else chart!r}")
    return builder(chart)


def _table(chart: Mapping, data: list[dict]) -> tuple[list[str], list[list[str]]]:
    fmt = chart.get("format", "float")
    kind = chart["kind"]
    if kind == "scatter":
        columns = [gettext("Point"), str(chart.get("x_label") or "x"), str(chart.get("y_label") or "y"),
                   str(chart.get("highlight_label") or "highlighted")]
        return columns, [[r["label"], format_number(r["x"], "float"), format_number(r["y"], "float"),
                          gettext("yes") if r["highlight"] else gettext("no")] for r in data]
    if kind == "grouped_bar":
        names = [str(item.get("name", "")) for item in chart.get("series") or []]
        groups = [str(g) for g in chart.get("groups") or []]
        cell = {(r["label"], r["series"]): r["value"] for r in data}
        return ([str(chart.get("y_label") or "Group"), *names],
                [[g, *(format_number(cell.get((g, n)), fmt) for n in names)] for g in groups])
    value_label = str(chart.get("value_label") or chart.get("x_label") or "Value")
    columns = [str(chart.get("y_label") or "Item"), value_label]
    with_interval = any(r.get("low") is not None for r in data)
    with_detail = any("detail" in r for r in data)
    columns += ["95% interval"] * with_interval + ["Details"] * with_detail
    rows = []
    for r in data:
        row = [r["label"], format_number(r["value"], fmt)]
        if with_interval:
            row.append("—" if r.get("low") is None else f"{format_number(r['low'], fmt)} – {format_number(r['high'], fmt)}")
        if with_detail:
            row.append(r.get("detail", ""))
        rows.append(row)
    return columns, rows


def chart_view(dom_id: str, chart: Mapping[str, Any]) -> ChartView:
    """Spec, table and downloads of one chart (raises :class:`ChartError` for bad chart JSON)."""
    spec, data = _build(chart)
    columns, rows = _table(chart, data)
    download = [{k: v for k, v in row.items() if k not in ("labelled",)} for row in data]
    title = spec["title"]["text"] + (f" ({spec['title']['subtitle']})" if "subtitle" in spec["title"] else "")
    return ChartView(dom_id=dom_id, title=title, spec=spec, columns=columns, rows=rows, data=download)
