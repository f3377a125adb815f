"""Reports say what they mean, and only what is true (issue 30 §6): no model score without a model,
plain column names with the statistic in the tooltip, p-values read in words, and a probe with too
little power says so."""
import html
import re

import pytest
from django.urls import reverse

from evaluation.services import ambiguity as ambiguity_services
from evaluation.services import reports as report_services
from evaluation.tests.factories import span_project

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


@pytest.fixture
def no_model_report(client, instructor, monkeypatch):
    """The report of a project whose model in the loop is "none" (no question has a model answer)."""
    monkeypatch.setattr(ambiguity_services, "ambiguity_selectional_section", lambda **kw: None)
    monkeypatch.setattr(ambiguity_services, "ambiguity_retrieval_section", lambda **kw: None)
    project = span_project(instructor)
    run = report_services.evaluation_start_project(project=project, user=instructor, config={"k": 5, "max_steps": 20})
    report_services.evaluation_run(run_id=run.pk)
    client.force_login(instructor)
    return _text(client.get(reverse("evaluation:project_report", args=[project.pk])))


def test_a_project_without_a_model_gets_no_model_score(no_model_report):
    assert "The model's answers overlap the gold answers" not in no_model_report
    assert "There is no model in the loop, so this report says nothing about a model's answers." in no_model_report
    assert "No model answered these questions" in no_model_report
    assert "EM and F1 in percent, overall and per split" not in no_model_report  # no model table


@pytest.fixture
def round_report(client, artifact_round, instructor, small_config) -> str:
    run = report_services.evaluation_start_round(round_=artifact_round, user=instructor, config=small_config)
    report_services.evaluation_run(run_id=run.pk)
    client.force_login(instructor)
    return client.get(reverse("evaluation:round_report", args=[artifact_round.pk])).content.decode()


def test_plain_words_first_and_the_statistic_in_the_tooltip(round_report):
    page = html.unescape(round_report)
    assert "Err, reweighted" not in page and "Err, uniform weights" not in page
    assert re.search(r'<span class="tip" title="Err with the learned weights[^"]*">Word–label imbalance after '
                     r'reweighting</span>', page)
    assert re.search(r'<span class="tip" title="Err = \(1/\(\|F\|·\|Y\|\)\)[^"]*">Word–label imbalance before '
                     r'reweighting</span>', page)


def test_every_p_value_is_read_in_words(round_report):
    page = _text_of(round_report)
    # the answer-only p-value of the summary, and the permutation test's p-value column
    assert re.search(r"Chance of this answer-only accuracy by guessing \(p-value\) \d\.\de-?\d+: a result this "
                     r"extreme would be (rare|common) by chance alone", page)
    assert ("Chance of A or more right in U by luck (p-value); The same chance, all gold labels pooled (p-value): "
            "below 5%, a result this extreme would be rare by chance alone; at 5% or more it would be common") in page


def _text_of(source: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", source)).split())


def test_a_probe_with_too_little_power_says_so(client, instructor, monkeypatch):
    """Recall 64/100 women against 69/100 men (SPEC R16): p = 0.45, and the test had about 12% power to see
    the paper's gap, which the page says instead of a bare "no evidence of bias"."""
    from evaluation.reports.ambiguity import selectional_section
    from evaluation.tests.ambiguity_data import selectional_probe
    from evaluation.tests.factories import finished_report

    monkeypatch.setattr(ambiguity_services, "ambiguity_selectional_section",
                        lambda **kw: selectional_section(selectional_probe(64, 69), source="R16"))
    monkeypatch.setattr(ambiguity_services, "ambiguity_retrieval_section", lambda **kw: None)
    project = span_project(instructor)
    finished_report(instructor, project=project)
    client.force_login(instructor)
    page = _text(client.get(reverse("evaluation:project_report", args=[project.pk])))
    assert "(no evidence of bias)" not in page
    assert ("The test finds no difference between the genders, but that says little: with these gold names it had "
            "only a 12.0% chance of seeing a gap as large as the one Mao et al. report (69.4% against 64.3% recall), "
            "and it would need about 1336 names of each gender for 80%.") in page
    assert ("Chance of seeing a gap the paper's size (power) : 12.0%; about 1336 gold names of each gender would "
            "give 80%.") in page
    # the p-value of the probe is read in words next to it
    assert re.search(r"p = 4\.5e-1 : a result this extreme would be common by chance alone", page)
