"""What the report page, the progress websocket and the API show of an evaluation run.

Pure functions over already-fetched runs: they word the status and progress once, turn the stored
sections into rendered views (charts as inline SVG) and build the download links.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from core.charts import ChartError, ChartView, chart_view
from core.jobs import job_display, job_kind, job_progress_shown
from evaluation.models import EvaluationRun
from evaluation.reports.format import Column, column, format_summary, format_table, shown_columns
from evaluation.reports.meaning import section_meaning

SECTION_ORDER = ("overview", "codah", "squad", "lexical", "ambiguity_selectional", "ambiguity_retrieval")
PREVIEW_ROWS = 25


def run_percent(run: EvaluationRun) -> float:
    if run.status == EvaluationRun.Status.DONE:
        return 100.0
    try:
        return max(0.0, min(100.0, float((run.progress or {}).get("percent") or 0.0)))
    except (TypeError, ValueError):
        return 0.0


def run_progress_text(run: EvaluationRun) -> str:
    """One line saying where the run is."""
    if run.status == EvaluationRun.Status.QUEUED:
        return "Waiting for a worker to start it."
    if run.status == EvaluationRun.Status.DONE:
        return "Finished."
    if run.status == EvaluationRun.Status.FAILED:
        return "Stopped with an error; nothing of this run was stored. Start a new report."
    stage = (run.progress or {}).get("stage") or "Working"
    return f"{stage} ({run_percent(run):.0f}%)"


def run_payload(run: EvaluationRun) -> dict:
    """``{id, status, progress, error, stalled, display, urls}``: the websocket message body and API summary."""
    progress = job_progress_shown(run)
    display = job_display(run, {"status": run.get_status_display(), "percent": run_percent(run),
                                "progress": run_progress_text(run)})
    return {
        "id": run.pk,
        "job": job_kind(run),
        "status": run.status,
        "target": run.target,
        "progress": progress,
        "error": run.error,
        "stalled": bool(display["stalled"]),
        "display": display,
        "urls": {
            "report": reverse("evaluation:run_detail", args=[run.pk]),
            "json": reverse("evaluation:run_json", args=[run.pk]),
            "socket": f"/ws/evaluation/runs/{run.pk}/",
        },
    }


@dataclass(frozen=True)
class TableView:
    name: str
    title: str
    columns: list[Column]  # plain name and formula of each shown column
    rows: list  # the first PREVIEW_ROWS rows, formatted
    total_rows: int
    csv_url: str
    help: str = ""  # safe HTML under the title (how to use the table elsewhere)
    stored: dict = field(default_factory=dict, repr=False)  # {"columns", "rows"} as stored
    section: str = ""

    @property
    def pvalue_note(self) -> str:
        """How to read the table's p-value columns, in words under the table (their formulas are in the tooltips)."""
        labels = [str(c.label) for c in self.columns if c.kind == "pvalue"]
        if not labels:
            return ""
        return _("%(columns)s: below 5%%, a result this extreme would be rare by chance alone; at 5%% or more it "
                 "would be common, which is no evidence of an effect (and no proof that there is none).") % {
            "columns": "; ".join(labels)}

    @cached_property
    def all_rows(self) -> list[list[str]]:
        """Every row, formatted (for a section's own partial that shows the whole table)."""
        return format_table(self.stored["columns"], self.stored["rows"], self.section)


@dataclass(frozen=True)
class SectionView:
    name: str
    title: str
    available: bool
    note: str
    meaning: str  # "what this means", one sentence
    summary: list[tuple[Column, str]]
    tables: list[TableView]
    charts: dict[str, ChartView | str]
    partial: str | None
    data: dict

    @property
    def tables_by_name(self) -> dict[str, TableView]:
        return {table.name: table for table in self.tables}


LABELS = {
    "cv_accuracy_pooled": "CV accuracy (pooled)", "cv_accuracy_mean": "Mean per-fold accuracy (CODAH)",
    "cv_accuracy_std": "Mean per-fold accuracy (std over trials)", "cv_trials": "CV trials", "cv_questions": "CV questions",
    "cv_run": "Cross-validation run", "answer_only_pvalue": "Answer-only binomial p-value",
    "answer_only_log10_pvalue": "Answer-only binomial log10 p",
    "p0": "z-score null", "k": "Top features per label (k)", "ess": "Effective sample size",
    "err_initial": "Word–label imbalance before reweighting",
    "err_final": "Word–label imbalance after reweighting",
    "bigram_lb_uniform": "Bigram label balance, uniform", "bigram_lb_q": "Bigram label balance, reweighted",
    "pvalue": "Permutation test p", "log10_pvalue": "log10 p", "acc_usual": "Accuracy, usual-label set U",
    "lexical_test": "How the p-value is computed", "pvalue_stratified": "Permutation test p, stratified by gold label",
    "log10_pvalue_stratified": "log10 p, stratified", "pvalue_unstratified": "Permutation test p, unstratified",
    "correct_in_usual": "Correct in U (A)", "expected_correct_in_usual": "Correct in U expected by chance (E[A])",
    "acc_unusual": "Accuracy, unusual-label set N", "exact": "EM", "f1": "F1", "HasAns_f1": "HasAns F1",
    "NoAns_f1": "NoAns F1",
}


def _label(key: str) -> str:
    return LABELS.get(key) or key.replace("_", " ").capitalize()


def _shown(title: str) -> str:
    """A stored title in the reader's language: reports store English, the catalogue has the known titles
    (one computed with numbers in it, unknown to the catalogue, stays as stored)."""
    return _(title) if title else title


def _partial(name: str) -> str | None:
    # The ambiguity probes may ship their own partial; otherwise the section is drawn generically.
    template = f"evaluation/_{name}.html"
    try:
        get_template(template)
    except TemplateDoesNotExist:
        return None
    return template


def _charts(section: str, value: dict) -> dict[str, ChartView | str]:
    """Each chart's view, or the sentence saying why it cannot be drawn."""
    charts: dict[str, ChartView | str] = {}
    for name, chart in (value.get("charts") or {}).items():
        try:
            charts[name] = chart_view(f"chart-{section}-{name}", chart)
        except ChartError as error:
            charts[name] = f"Chart “{name}” cannot be drawn: {error}"
    return charts


def section_view(run: EvaluationRun, name: str, value: dict) -> SectionView:
    tables = [
        TableView(
            name=table_name, title=_shown(item.get("title")) or _label(table_name),
            columns=[column(item["columns"][i], name) for i in shown_columns(item["columns"], name)],
            rows=format_table(item["columns"], item["rows"][:PREVIEW_ROWS], name),
            total_rows=len(item["rows"]),
            csv_url=reverse("evaluation:run_table_csv", args=[run.pk, name, table_name]),
            help=weights_export_help(run) if (name, table_name) == ("lexical", "weights") else "",
            stored=item, section=name,
        )
        for table_name, item in (value.get("tables") or {}).items()
    ]
    return SectionView(
        name=name, title=_shown(value.get("title")) or _label(name), available=bool(value.get("available", True)),
        note=value.get("note") or "", meaning=section_meaning(name, value),
        summary=format_summary(value.get("summary") or {}, name),
        tables=tables, charts=_charts(name, value), partial=_partial(name) if name.startswith("ambiguity") else None,
        data={**value, "title": _shown(value.get("title"))} if value.get("title") else value,
    )


def weights_export_help(run: EvaluationRun) -> SafeString:
    """Where to get a dataset export carrying this report's weights (the table alone has only keys)."""
    if run.target == EvaluationRun.Target.PROJECT and run.project_id:
        url = reverse("evaluation:project_export", args=[run.project_id])
        return format_html(
            '<a href="{}?weights_run={}">Download the SQuAD export with these weights</a> (each qa gets '
            '"weight"; choose a split on the <a href="{}#export-heading">project dashboard</a>), or run '
            '<code>manage.py export_squad --project "{}" --weights-from {} out.json</code>.',
            url, run.pk, reverse("annotation:project_dashboard", args=[run.project_id]), run.project.name, run.pk)
    if run.target == EvaluationRun.Target.ROUND and run.round_id:
        return format_html(
            "To add them to the round's CODAH export (4 more columns, the weight of each choice in order), run "
            '<code>manage.py export_codah --round "{}" --weights-from {} out.tsv</code> (or <code>--format jsonl</code>).',
            run.round.name, run.pk)
    return mark_safe("")


def report_view(run: EvaluationRun) -> list[SectionView]:
    """The run's sections in reading order (known sections first, any others after)."""
    result = run.result or {}
    names = [name for name in SECTION_ORDER if name in result] + sorted(set(result) - set(SECTION_ORDER))
    return [section_view(run, name, result[name]) for name in names]


def run_json(run: EvaluationRun) -> dict:
    """The whole report with its provenance: the JSON download and the API's detail response."""
    version = run.model_version
    return {
        "id": run.pk,
        "target": run.target,
        "round": run.round.name if run.round_id else None,
        "project": run.project.name if run.project_id else None,
        "status": run.status,
        "error": run.error,
        "config": run.config,
        "model_version": version.name if version else None,
        "model_revision": run.model_revision,
        "snapshot": run.snapshot,
        "snapshot_digest": run.snapshot_digest,
        "created_at": run.created_at.isoformat(),
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "created_by": run.created_by.get_username() if run.created_by else None,
        "sections": run.result or {},
    }
