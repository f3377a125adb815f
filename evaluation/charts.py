"""Inline SVG charts drawn on the server from a section's chart JSON (no JavaScript, no CDN).

``render_chart(chart)`` dispatches on ``chart["kind"]``:

* ``bar``: ``{"items": [{"label", "value"}], "max"?, "reference"?: {"value", "label"}, "format"?}``
* ``grouped_bar``: ``{"groups": [label], "series": [{"name", "values": [number | None]}], "max"?,
  "reference"?, "format"?}`` (a missing value is drawn as "n/a")
* ``scatter``: ``{"points": [{"x", "y", "label", "highlight"?}], "x_label", "y_label",
  "diagonal"?: bool}`` (highlighted points are labelled; the paper's Figure 2)
* ``diverging_bar``: ``{"items": [{"label", "value"}], "negative_label", "positive_label"}``
  (bars left/right of zero; Mao et al.'s Figure 1)

Every chart has ``title``; ``format`` is ``"percent"`` (0-1 shown as %), ``"int"`` or ``"float"``.
All text is escaped; the SVG carries ``role="img"`` and a ``<title>`` for screen readers.
"""
from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

WIDTH = 640
LABEL_WIDTH = 150
ROW = 22
PALETTE = ("#5b7fd6", "#d9822b", "#3a9d5d", "#a35bb5", "#7a828f")


class ChartError(ValueError):
    """Chart JSON that cannot be drawn."""


def _fmt(value: float | None, fmt: str) -> str:
    if value is None:
        return "n/a"
    if fmt == "percent":
        return f"{100 * value:.1f}%"
    if fmt == "int":
        return f"{value:.0f}"
    return f"{value:.3g}"


def _text(x: float, y: float, text: str, *, anchor: str = "start", css: str = "chart-text") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" class="{css}">{escape(str(text))}</text>'


def _svg(title: str, height: float, body: list[str]) -> str:
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height:.0f}" width="100%" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg" font-size="12">'
        f"<title>{escape(title)}</title>{''.join(body)}</svg>"
    )


def _number(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ChartError(f"{where}: {value!r} is not a number")
    return float(value)


def bar_chart(chart: Mapping[str, Any]) -> str:
    items = chart.get("items") or []
    fmt = chart.get("format", "float")
    values = [_number(item.get("value"), "bar value") for item in items]
    top = _number(chart.get("max"), "max") or max([v for v in values if v is not None] + [1e-12])
    plot = WIDTH - LABEL_WIDTH - 70
    height = 10 + ROW * len(items) + 16
    body = []
    for i, (item, value) in enumerate(zip(items, values)):
        y = 10 + ROW * i
        body.append(_text(LABEL_WIDTH - 8, y + 13, item.get("label", ""), anchor="end"))
        width = plot * max(0.0, min(1.0, (value or 0.0) / top))
        body.append(f'<rect class="chart-bar" fill="{PALETTE[0]}" x="{LABEL_WIDTH}" y="{y + 3}" width="{width:.1f}" height="{ROW - 8}"/>')
        body.append(_text(LABEL_WIDTH + width + 6, y + 13, _fmt(value, fmt), css="chart-value"))
    body.extend(_reference(chart.get("reference"), top, plot, 10, 10 + ROW * len(items), fmt))
    return _svg(chart.get("title", ""), height, body)


def _reference(reference: Mapping | None, top: float, plot: float, y0: float, y1: float, fmt: str) -> list[str]:
    if not reference:
        return []
    value = _number(reference.get("value"), "reference")
    x = LABEL_WIDTH + plot * max(0.0, min(1.0, value / top))
    label = reference.get("label") or _fmt(value, fmt)
    return [
        f'<line class="chart-reference" stroke="#a12a1a" stroke-dasharray="4 3" x1="{x:.1f}" x2="{x:.1f}" y1="{y0}" y2="{y1}"/>',
        _text(x, y1 + 12, label, anchor="middle", css="chart-reference-label"),
    ]


def grouped_bar_chart(chart: Mapping[str, Any]) -> str:
    groups, series = chart.get("groups") or [], chart.get("series") or []
    fmt = chart.get("format", "float")
    table = [[_number(v, "series value") for v in s.get("values", [])] for s in series]
    if any(len(values) != len(groups) for values in table):
        raise ChartError("every series needs one value per group")
    top = _number(chart.get("max"), "max") or max([v for values in table for v in values if v is not None] + [1e-12])
    plot = WIDTH - LABEL_WIDTH - 70
    bar = 13
    block = bar * max(len(series), 1) + 10
    legend_y = 10 + block * len(groups) + 18
    body = []
    for g, group in enumerate(groups):
        y = 10 + block * g
        body.append(_text(LABEL_WIDTH - 8, y + block / 2, group, anchor="end"))
        for s, values in enumerate(table):
            value, color = values[g], PALETTE[s % len(PALETTE)]
            width = plot * max(0.0, min(1.0, (value or 0.0) / top))
            yy = y + bar * s
            body.append(f'<rect class="chart-series-{s}" fill="{color}" x="{LABEL_WIDTH}" y="{yy}" width="{width:.1f}" height="{bar - 2}"/>')
            body.append(_text(LABEL_WIDTH + width + 5, yy + 10, _fmt(value, fmt), css="chart-value"))
    body.extend(_reference(chart.get("reference"), top, plot, 10, 10 + block * len(groups), fmt))
    x = LABEL_WIDTH
    for s, item in enumerate(series):
        body.append(f'<rect fill="{PALETTE[s % len(PALETTE)]}" x="{x}" y="{legend_y}" width="10" height="10"/>')
        body.append(_text(x + 14, legend_y + 9, item.get("name", "")))
        x += 24 + 7 * len(str(item.get("name", "")))
    return _svg(chart.get("title", ""), legend_y + 20, body)


def scatter_chart(chart: Mapping[str, Any]) -> str:
    points = chart.get("points") or []
    xs = [_number(p.get("x"), "x") for p in points]
    ys = [_number(p.get("y"), "y") for p in points]
    finite = [v for v in xs + ys if v is not None]
    top = max(finite + [1e-12]) * 1.05
    left, size, pad = 60, 400, 20
    height = size + 60

    def sx(v: float) -> float:
        return left + size * v / top

    def sy(v: float) -> float:
        return pad + size * (1 - v / top)

    body = [
        f'<line class="chart-axis" stroke="#5a6272" x1="{left}" y1="{pad + size}" x2="{left + size}" y2="{pad + size}"/>',
        f'<line class="chart-axis" stroke="#5a6272" x1="{left}" y1="{pad}" x2="{left}" y2="{pad + size}"/>',
        _text(left + size / 2, pad + size + 34, chart.get("x_label", ""), anchor="middle"),
        f'<text x="14" y="{pad + size / 2:.1f}" text-anchor="middle" class="chart-text" '
        f'transform="rotate(-90 14 {pad + size / 2:.1f})">{escape(chart.get("y_label", ""))}</text>',
        _text(left - 4, pad + size + 14, "0", anchor="end"),
        _text(left + size, pad + size + 14, _fmt(top, "float"), anchor="end"),
        _text(left - 4, pad + 10, _fmt(top, "float"), anchor="end"),
    ]
    if chart.get("diagonal", True):
        body.append(f'<line class="chart-reference" stroke="#a12a1a" stroke-dasharray="4 3" '
                    f'x1="{sx(0):.1f}" y1="{sy(0):.1f}" x2="{sx(top):.1f}" y2="{sy(top):.1f}"/>')
    for point, x, y in zip(points, xs, ys):
        if x is None or y is None:
            continue
        highlight = bool(point.get("highlight"))
        css = "chart-point chart-point-highlight" if highlight else "chart-point"
        color = PALETTE[1] if highlight else PALETTE[0]
        body.append(f'<circle class="{css}" fill="{color}" fill-opacity="0.75" cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="4">'
                    f"<title>{escape(str(point.get('label', '')))}: {x:.3f} → {y:.3f}</title></circle>")
        if highlight:
            body.append(_text(sx(x) + 6, sy(y) - 5, point.get("label", ""), css="chart-point-label"))
    return _svg(chart.get("title", ""), height, body)


def diverging_bar_chart(chart: Mapping[str, Any]) -> str:
    items = chart.get("items") or []
    values = [_number(item.get("value"), "value") or 0.0 for item in items]
    top = max([abs(v) for v in values] + [1e-12])
    half = (WIDTH - LABEL_WIDTH - 40) / 2
    zero = LABEL_WIDTH + half
    height = 28 + ROW * len(items) + 10
    body = [
        _text(zero - 6, 14, chart.get("negative_label", "negative"), anchor="end", css="chart-text chart-muted"),
        _text(zero + 6, 14, chart.get("positive_label", "positive"), css="chart-text chart-muted"),
        f'<line class="chart-axis" stroke="#5a6272" x1="{zero}" x2="{zero}" y1="20" y2="{20 + ROW * len(items)}"/>',
    ]
    for i, (item, value) in enumerate(zip(items, values)):
        y = 22 + ROW * i
        width = half * abs(value) / top
        x = zero if value >= 0 else zero - width
        css, color = ("chart-positive", PALETTE[2]) if value >= 0 else ("chart-negative", PALETTE[1])
        body.append(_text(LABEL_WIDTH - 8, y + 13, item.get("label", ""), anchor="end"))
        body.append(f'<rect class="{css}" fill="{color}" x="{x:.1f}" y="{y + 3}" width="{width:.1f}" height="{ROW - 8}"/>')
        label_x = x + width + 4 if value >= 0 else x - 4
        body.append(_text(label_x, y + 13, _fmt(value, chart.get("format", "float")),
                          anchor="start" if value >= 0 else "end", css="chart-value"))
    return _svg(chart.get("title", ""), height, body)


RENDERERS = {
    "bar": bar_chart,
    "grouped_bar": grouped_bar_chart,
    "scatter": scatter_chart,
    "diverging_bar": diverging_bar_chart,
}


def render_chart(chart: Mapping[str, Any]) -> str:
    """The SVG markup of one chart (already escaped: safe to insert as HTML)."""
    renderer = RENDERERS.get(chart.get("kind")) if isinstance(chart, Mapping) else None
    if renderer is None:
        raise ChartError(f"unknown chart kind {chart.get('kind') if isinstance(chart, Mapping) else chart!r}")
    return renderer(chart)
