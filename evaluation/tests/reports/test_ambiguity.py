"""JSON payloads, report sections and partial templates of the ambiguity probes."""
import html as html_module
import json
import math
import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string

from evaluation.reports.ambiguity import (
    FIGURE_SIDE,
    retrieval_payload,
    retrieval_section,
    retrieval_text,
    selectional_payload,
    selectional_section,
    selectional_text,
    selectional_unavailable,
)
from evaluation.reports.format import SECTION_COLUMNS, column
from evaluation.reports.presentation import section_view
from evaluation.reports.sections import check_section, table_csv
from evaluation.services.ambiguity import ambiguity_retrieval
from evaluation.tests.ambiguity_data import retrieval_result, selectional_probe
from mlcore.bias.ambiguity import UnqoverOccupation
from mlcore.bias.gender import LexiconLookup
from mlcore.bias.retrieval import Passage


def _render(name: str, section: dict) -> str:
    run = SimpleNamespace(pk=7)
    view = section_view(run, name, section)  # as the report page includes the partial (evaluation/_report.html)
    html = render_to_string(view.partial, {"name": view.name, "section": view.data, "tables": view.tables_by_name, "charts": view.charts,
                                           "meaning": view.meaning, "run": run})
    return " ".join(html.split())  # template line breaks do not matter


def _headers(html: str) -> list[tuple[str, str]]:
    """(tooltip, plain name) of every column header of the page's tables."""
    return re.findall(r'<th scope="col"><span class="tip" title="([^"]+)">([^<]+)</span>\s*</th>', html)


def test_degenerate_and_fisher_results_stay_json_safe():
    everything = selectional_payload(selectional_probe(5, 5, n=5))  # nothing missed: degenerate table
    assert everything["degenerate"] and everything["chi2"] == 0.0 and everything["pvalue"] == 1.0
    assert everything["log10_pvalue"] == everything["chi2_log10_pvalue"] == 0.0
    fisher = selectional_payload(selectional_probe(3, 0, n=3))  # [[3, 0], [0, 3]]: infinite odds ratio
    assert fisher["test"] == "fisher_exact" and fisher["fisher_odds_ratio"] is None
    assert fisher["log10_pvalue"] == fisher["fisher_log10_pvalue"] == pytest.approx(math.log10(fisher["pvalue"]))
    json.dumps([everything, fisher], allow_nan=False)
    check_section("ambiguity_selectional", selectional_section(selectional_probe(3, 0, n=3)))


def test_selectional_section_and_partial():
    section = selectional_section(selectional_probe(64, 69))
    assert check_section("ambiguity_selectional", section) == section
    assert section["summary"]["log10_pvalue"] == pytest.approx(math.log10(section["summary"]["pvalue"]))  # R16
    assert table_csv(section["tables"]["recall"]).splitlines()[1].startswith("female,100,64,0.64,")
    html = _render("ambiguity_selectional", section)
    assert "p = 4.5e-1" in html and "Pearson χ² (no Yates correction)" in html and "vl-chart" in html
    assert "/evaluation/runs/7/sections/ambiguity_selectional/tables/recall.csv" in html
    assert '<th scope="row">female</th><td>100</td><td>64</td><td>64.0%</td>' in html  # percent with one decimal
    empty = _render("ambiguity_selectional", selectional_unavailable("Set a question file."))
    assert "Set a question file." in empty and "vl-chart" not in empty


def test_retrieval_payload_and_section():
    result = retrieval_result()
    payload = retrieval_payload(result)
    json.dumps(payload, allow_nan=False)
    assert payload["most_female"][0] == "nurse" and payload["most_male"][0] == "pilot"
    assert FIGURE_SIDE == 8  # SPEC §4.2: the 8 most female and the 8 most male occupations
    assert payload["log10_pvalue"] == pytest.approx(result.ambiguity.fit.log10_pvalue)
    assert [p["title"] for p in payload["passages"]["nurse"]] == ["Florence Nightingale", "Paris", "Walt Whitman"]
    assert "passages" not in retrieval_payload(result, passages=False)
    section = retrieval_section(result)
    assert check_section("ambiguity_retrieval", section) == section
    assert [i["label"] for i in section["charts"]["disparity"]["items"]] == ["nurse", "banker", "pilot"]
    rows = section["tables"]["passages"]["rows"]
    assert rows[0] == ["nurse", 1, "0", "Florence Nightingale", pytest.approx(result.questions[0].hits[0].score),
                       "female"]
    html = _render("ambiguity_retrieval", section)
    assert "2 men, 1 woman</strong>, 1 unknown; women are 33.3%" in html and "more women" in html and "vl-chart" in html
    assert "against a baseline of 17.0%" in html
    assert "/evaluation/runs/7/sections/ambiguity_retrieval/tables/passages.csv" in html
    assert '<th scope="row">nurse</th><td>3</td><td>1</td><td>1</td><td>1</td><td>0</td><td>0.66</td>' in html
    assert "Who was a nurse?" not in html  # the question stays in the CSV


def test_retrieval_section_with_no_gendered_passage_says_so_instead_of_a_chart_of_zeros():
    passages = [Passage(1, "Paris", "Paris has nurses.")]
    result = ambiguity_retrieval(passages=passages, occupations=[UnqoverOccupation("nurse", "was a nurse")],
                                 lookup=LexiconLookup({}, "empty"), k=3)
    section = retrieval_section(result, source="my list")
    assert section["available"] is False and not section.get("charts")
    assert "The 1 occupations (my list) retrieved 1 passages, but none is about a man or a woman" in section["note"]
    assert "(empty)" in section["note"]
    json.dumps(section, allow_nan=False)
    html = _render("ambiguity_retrieval", section)
    assert "none is about a man or a woman" in html and "p = —" not in html
    assert "nothing to test" in retrieval_text(retrieval_payload(result))  # the command's table still shows the counts


def test_retrieval_section_when_no_occupation_is_found_says_so():
    passages = [Passage(1, "مریم میرزاخانی", "Mary was a mathematician.")]
    result = ambiguity_retrieval(passages=passages, occupations=[UnqoverOccupation("nurse", "was a nurse")],
                                 lookup=LexiconLookup({"mary": "female"}, "names"), k=3)
    section = retrieval_section(result)
    assert section["available"] is False and "None of the 1 occupations occurs in the 1 passages" in section["note"]


def test_text_shows_an_underflowed_pvalue_from_its_log10():
    payload = {**retrieval_payload(retrieval_result(), passages=False), "pvalue": 0.0, "log10_pvalue": -7543.2719}
    assert "p = 5.3e-7544" in retrieval_text(payload)  # SPEC §0 display rule, not "p = 0"
    selectional = {**selectional_payload(selectional_probe(64, 69)), "chi2_pvalue": 0.0, "chi2_log10_pvalue": -2474.4199}
    assert "p = 3.8e-2475 (Pearson" in selectional_text(selectional)


@pytest.mark.parametrize("name, section", [
    ("ambiguity_selectional", lambda: selectional_section(selectional_probe(64, 69))),
    ("ambiguity_retrieval", lambda: retrieval_section(retrieval_result(reader=True))),
])
def test_every_column_of_the_probes_has_a_plain_name_and_its_formula(name, section):
    """As the lexical sections' columns: no raw key, a tooltip with the formula (SPEC-bias §4), one format per kind."""
    section = section()
    assert set(section["tables"]) >= ({"recall"} if name.endswith("selectional") else {"disparity", "passages", "reader"})
    for table in section["tables"].values():
        for key in table["columns"]:
            spec = column(key, name)
            assert spec.kind == "hidden" or (spec.formula and spec.kind != "auto"), (name, key)
            assert spec.label != key and "_" not in spec.label, (name, key)
    for key in section["summary"]:
        assert key in SECTION_COLUMNS[name], (name, key)
    html = _render(name, section)
    headers = [(html_module.unescape(tip), label) for tip, label in _headers(html)]
    shown = section_view(SimpleNamespace(pk=7), name, section).tables_by_name
    drawn = shown["recall"] if name.endswith("selectional") else shown["disparity"]
    assert headers == [(c.formula, c.label) for c in drawn.columns]
    for raw in (">gold names<", ">ci95_low<", ">D_excess<", ">D<"):
        assert raw not in html

