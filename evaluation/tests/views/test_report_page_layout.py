"""The round's report page for people: newest report first, the start form folded, plain column
names with formulas, one number format per kind, a "what this means" line, charts with tables."""
import json
import re

import pytest
from django.urls import reverse

from evaluation.reports.ambiguity import retrieval_section, selectional_section
from evaluation.services import ambiguity as ambiguity_services
from evaluation.services import reports as services
from evaluation.tests.ambiguity_data import retrieval_result, selectional_probe
from evaluation.tests.factories import finished_report, span_project

pytestmark = pytest.mark.django_db


@pytest.fixture
def page(client, artifact_round, instructor, small_config):
    for _ in range(2):
        run = services.evaluation_start_round(round_=artifact_round, user=instructor, config=small_config)
        services.evaluation_run(run_id=run.pk)
    client.force_login(instructor)
    return client.get(reverse("evaluation:round_report", args=[artifact_round.pk])).content.decode(), run


def test_newest_report_first_and_the_form_folded(page):
    html, newest = page
    assert f"Report {newest.pk} · finished" in html
    form = html.index('<details class="card new-report">')  # no "open": folded away
    assert form < html.index('id="section-overview"') < html.index('id="history-heading"')
    history = re.findall(r'>Report (\d+)</a>', html)
    assert history == sorted(history, key=int, reverse=True) and history[0] == str(newest.pk)


def test_plain_names_with_formulas_and_one_format_per_kind(page):
    html, _ = page
    assert '<span class="tip" title="LB_q(w) = (1/|Y|) Σ_y |q(y|w) − q(y)| with the learned weights q">' \
           'Label balance, reweighted</span>' in html
    assert '<span class="tip" title="instances containing the feature that have this label">' in html
    for raw in (">lb_uniform<", ">count_with_label<", ">live_model_accuracy<", ">p_display<"):
        assert raw not in html
    assert "<dd>50.0%</dd>" in html  # cross-validation accuracy, a percent with one decimal
    assert re.search(r"<dd>\d\.\de-\d+</dd>", html)  # the answer-only p-value by the SPEC display rule
    assert html.count('<p class="meaning">') == 3
    assert "the completions alone give answers away" in html


def test_the_ambiguity_probes_columns_too(client, instructor, monkeypatch):
    """The project report's ambiguity tables name their columns as the lexical ones do, formulas in tooltips."""
    monkeypatch.setattr(ambiguity_services, "ambiguity_selectional_section",
                        lambda **kw: selectional_section(selectional_probe(64, 69), source="R16"))
    monkeypatch.setattr(ambiguity_services, "ambiguity_retrieval_section",
                        lambda **kw: retrieval_section(retrieval_result(reader=True), source="three jobs"))
    project = span_project(instructor)
    finished_report(instructor, project=project)
    client.force_login(instructor)
    html = client.get(reverse("evaluation:project_report", args=[project.pk])).content.decode()
    assert '<span class="tip" title="Recall(g) = found / gold names">Recall</span>' in html
    assert '<span class="tip" title="D(occ) = count_occ(female) − count_occ(male), in [−k, k]; positive: more ' \
           'women">Disparity D</span>' in html
    assert '<span class="tip" title="D*(occ) = count_f − π·(count_f + count_m)">Women beyond baseline (D*)</span>' \
           in html
    for raw in (">gold names<", ">ci95_low<", ">D_excess<"):
        assert raw not in html
    assert "<td>64.0%</td>" in html and "women are 33.3%" in html  # percent with one decimal
    assert re.search(r"<strong>p = \d\.\de-?\d+</strong>", html)  # SPEC display rule


def test_charts_come_with_their_specs_tables_and_downloads(page):
    html, _ = page
    specs = re.findall(r'<script id="(chart-[\w-]+)-spec" type="application/json">(.*?)</script>', html, re.S)
    # (jsonb on PostgreSQL keeps a section's charts in its own key order)
    assert sorted(name for name, _ in specs) == ["chart-codah-accuracy", "chart-codah-categories",
                                                 "chart-lexical-label_balance"]
    for _, text in specs:
        spec = json.loads(text)
        assert spec["title"]["text"] and spec["layer"][0]["encoding"]["tooltip"]
    assert html.count('class="vl-table') == 3 and html.count('download="chart-') == 6
    assert "vendor/vega/vega.min.js" in html and '<script type="module" src="/static/js/charts.js">' in html
