"""The project's numbers over the API (and the SQuAD data beside them), for its owner only."""
import pytest
from django.urls import reverse

from annotation.selectors.exports import project_squad_dict
from annotation.tests.factories import api_client, submitted_paragraph

pytestmark = pytest.mark.django_db


class OwnerApiTests:
    def test_stats_and_export_for_the_owner_only(self, project, crowdworker, worker2):
        submitted_paragraph(project, crowdworker)
        owner = api_client(project.owner)
        stats = owner.get(reverse("annotation_api:project_stats", args=[project.pk])).json()
        assert stats["questions"] == 3 and stats["splits"][1]["questions"] == 3
        # The SQuAD file beside them (served over HTTP by evaluation: evaluation/tests/apis/test_exports.py).
        export = project_squad_dict(project=project, split="validation")
        assert len(export["data"][0]["paragraphs"][0]["qas"]) == 3
        assert api_client(worker2).get(reverse("annotation_api:project_stats", args=[project.pk])).status_code == 403
