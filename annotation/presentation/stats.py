"""The project dashboard's charts, from the numbers ``annotation.selectors.stats.project_stats`` read."""
from annotation.selectors.stats import ProjectStats


def stats_charts(stats: ProjectStats) -> list[dict]:
    """Chart JSON for ``core.charts.chart_view`` (Vega-Lite, drawn in the browser)."""
    charts = [
        {"kind": "bar", "title": "Paragraphs done per split", "format": "percent", "max": 1.0,
         "x_label": "share of the split's paragraphs done", "y_label": "Split", "value_label": "done",
         "items": [{"label": s.label, "value": s.done_share} for s in stats.splits]},
        {"kind": "bar", "title": "Questions per paragraph", "format": "int", "x_label": "paragraphs",
         "y_label": "Questions on the paragraph", "value_label": "paragraphs",
         "items": [{"label": label, "value": n} for label, n in stats.questions_per_paragraph]},
        {"kind": "bar", "title": "Answer length in words (first answers)", "format": "int", "x_label": "answers",
         "y_label": "Words in the answer", "value_label": "answers",
         "items": [{"label": label, "value": n} for label, n in stats.answer_words]},
    ]
    if stats.human:
        charts.append({
            "kind": "grouped_bar",
            "title": f"Human EM/F1 from {stats.blind_answers} blind second-pass answers (vs the first answer)",
            "format": "float", "max": 100.0, "groups": ["EM", "F1"], "x_label": "score (0-100)",
            "y_label": "Measure", "value_label": "score",
            "series": [{"name": f"{h.normalizer} normaliser", "values": [h.exact, h.f1]} for h in stats.human],
        })
    return charts
