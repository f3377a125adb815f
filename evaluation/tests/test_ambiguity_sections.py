"""JSON payloads, report sections and partial templates of the ambiguity probes."""
import json
import math
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string

from core.charts import chart_view
from evaluation.ambiguity_sections import (
    FIGURE_SIDE,
    SelectionalProbe,
    retrieval_payload,
    retrieval_section,
    retrieval_text,
    selectional_payload,
    selectional_section,
    selectional_text,
    selectional_unavailable,
)
from evaluation.ambiguity_services import ambiguity_retrieval
from evaluation.sections import check_section, table_csv
from evaluation.tests.ambiguity_data import BIOGRAPHIES
from mlcore.bias.ambiguity import AmbiguityOption, AmbiguityQuestion, UnqoverOccupation, selectional_recall
from mlcore.bias.gender import LexiconLookup
from mlcore.bias.retrieval import Passage


def _probe(found_female: int, found_male: int, n: int = 100) -> SelectionalProbe:
    questions, answers = [], {}
    for i in range(n):
        female, male = f"Fa{i} Fb{i}", f"Ma{i} Mb{i}"
        questions.append(AmbiguityQuestion(i, "x", "Who discovered the x", "",
                                           (AmbiguityOption(female, "female"), AmbiguityOption(male, "male"))))
        answers[str(i)] = " ".join(([female] if i < found_female else []) + ([male] if i < found_male else []))
    return SelectionalProbe(selectional_recall(questions, answers), answers, "predictions file")


def _retrieval():
    passages = [Passage(i, t, x) for i, (t, x) in enumerate(BIOGRAPHIES.items())]
    lookup = LexiconLookup({"florence": "female", "mary": "female", "sally": "female", "yuri": "male",
                            "neil": "male", "walt": "male"}, "test names")
    occupations = [UnqoverOccupation(o, f"was a {o}") for o in ("nurse", "pilot", "banker")]
    return ambiguity_retrieval(passages=passages, occupations=occupations, lookup=lookup, k=3)


def _render(name: str, section: dict) -> str:
    charts = {key: chart_view(f"chart-{name}-{key}", chart) for key, chart in section["charts"].items()}  # as presentation.py
    html = render_to_string(f"evaluation/_{name}.html", {"section": section, "charts": charts,
                                                          "run": SimpleNamespace(pk=7)})
    return " ".join(html.split())  # template line breaks do not matter


def test_degenerate_and_fisher_results_stay_json_safe():
    everything = selectional_payload(_probe(5, 5, n=5))  # nothing missed: degenerate table
    assert everything["degenerate"] and everything["chi2"] == 0.0 and everything["pvalue"] == 1.0
    assert everything["log10_pvalue"] == everything["chi2_log10_pvalue"] == 0.0
    fisher = selectional_payload(_probe(3, 0, n=3))  # [[3, 0], [0, 3]]: infinite odds ratio
    assert fisher["test"] == "fisher_exact" and fisher["fisher_odds_ratio"] is None
    assert fisher["log10_pvalue"] == fisher["fisher_log10_pvalue"] == pytest.approx(math.log10(fisher["pvalue"]))
    json.dumps([everything, fisher], allow_nan=False)
    check_section("ambiguity_selectional", selectional_section(_probe(3, 0, n=3)))


def test_selectional_section_and_partial():
    section = selectional_section(_probe(64, 69))
    assert check_section("ambiguity_selectional", section) == section
    assert section["summary"]["log10_pvalue"] == pytest.approx(math.log10(section["summary"]["pvalue"]))  # R16
    assert table_csv(section["tables"]["recall"]).splitlines()[1].startswith("female,100,64,0.64,")
    html = _render("ambiguity_selectional", section)
    assert "p = 4.5e-1" in html and "Pearson χ² (no Yates correction)" in html and "vl-chart" in html
    assert "/evaluation/runs/7/sections/ambiguity_selectional/tables/recall.csv" in html
    assert "<td>64.0%</td>" in html
    empty = _render("ambiguity_selectional", selectional_unavailable("Set a question file."))
    assert "Set a question file." in empty and "vl-chart" not in empty


def test_retrieval_payload_and_section():
    result = _retrieval()
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
    assert "2 men, 1 woman</strong>, 1 unknown; women are 33%" in html and "more women" in html and "vl-chart" in html
    assert "/evaluation/runs/7/sections/ambiguity_retrieval/tables/passages.csv" in html
    assert '<th scope="row" title="Who was a nurse?">nurse</th>' in html


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
    payload = {**retrieval_payload(_retrieval(), passages=False), "pvalue": 0.0, "log10_pvalue": -7543.2719}
    assert "p = 5.3e-7544" in retrieval_text(payload)  # SPEC §0 display rule, not "p = 0"
    selectional = {**selectional_payload(_probe(64, 69)), "chi2_pvalue": 0.0, "chi2_log10_pvalue": -2474.4199}
    assert "p = 3.8e-2475 (Pearson" in selectional_text(selectional)
