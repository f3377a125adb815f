"""What the report pages show: the weights table says how to get a dataset export carrying its weights."""
import json

import pytest
from django.urls import reverse

from evaluation.tests.factories import finished_report, span_project

pytestmark = pytest.mark.django_db


def weights_table_html(page: str) -> str:
    """The weights table's block, from its heading to the table itself."""
    start = page.index('id="table-lexical-weights"')
    return page[start:page.index("<table", start)]


class WeightsExportHelpTests:
    def test_a_round_report_names_the_export_command(self, client, instructor, artifact_round):
        run = finished_report(instructor, round_=artifact_round)
        client.force_login(instructor)

        page = client.get(reverse("evaluation:round_report", args=[artifact_round.pk])).content.decode()

        help_html = weights_table_html(page)
        assert (f'<code>manage.py export_codah --round "{artifact_round.name}" --weights-from {run.pk} '
                "out.tsv</code>") in help_html
        assert "4 more columns" in help_html

    def test_a_project_report_links_to_the_weighted_download(self, client, instructor, monkeypatch):
        from evaluation.services import ambiguity as ambiguity_services

        monkeypatch.setattr(ambiguity_services, "ambiguity_selectional_section", lambda **kw: None)
        monkeypatch.setattr(ambiguity_services, "ambiguity_retrieval_section", lambda **kw: None)
        project = span_project(instructor)
        run = finished_report(instructor, project=project)
        client.force_login(instructor)

        help_html = weights_table_html(
            client.get(reverse("evaluation:run_detail", args=[run.pk])).content.decode())

        download = f"{reverse('evaluation:project_export', args=[project.pk])}?weights_run={run.pk}"
        assert f'<a href="{download}">Download the SQuAD export with these weights</a>' in help_html
        assert f"--weights-from {run.pk} out.json" in help_html
        assert reverse("annotation:project_dashboard", args=[project.pk]) in help_html
        # The link works: every train question comes with its weight.
        exported = json.loads(client.get(download).content)
        qas = [qa for a in exported["data"] for p in a["paragraphs"] for qa in p["qas"]]
        assert sum(qa["weight"] is not None for qa in qas) == 8

    def test_other_tables_have_no_export_help(self, client, instructor, artifact_round):
        finished_report(instructor, round_=artifact_round)
        client.force_login(instructor)
        page = client.get(reverse("evaluation:round_report", args=[artifact_round.pk])).content.decode()
        assert page.count("--weights-from") == 1
