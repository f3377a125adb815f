"""The round page's scoring controls: start disabled while a run is active, cancel, resume, and
the page opening at the scoring section (its message there) after each of them."""
from unittest import mock

import pytest
from django.urls import reverse

from collector.models import ScoringRun
from collector.tests.factories import finished_scoring_run

pytestmark = pytest.mark.django_db


def round_page(client, round_) -> str:
    return client.get(reverse("collector:round_detail", args=[round_.pk])).content.decode()


def start_button(page: str, kind: str) -> str:
    form = page.split(f'class="scoring-form" data-kind="{kind}"', 1)[1]
    return form.split("<button", 1)[1].split(">", 1)[0]


class ScoringControlsTests:
    def test_start_is_disabled_and_cancel_offered_while_a_run_is_active(self, client, instructor, round_):
        run = ScoringRun.objects.create(round=round_, status="running", base_checkpoint="x",
                                        progress={"done_folds": 1, "total_folds": 5})
        client.force_login(instructor)
        page = round_page(client, round_)
        assert "disabled" in start_button(page, "cross_validation")
        assert "disabled" not in start_button(page, "answer_only")
        assert "A run is in progress" in page
        assert f'action="{reverse("collector:scoring_run_cancel", args=[run.pk])}"' in page

    def test_cancel_then_resume_from_the_page_opens_at_the_scoring_section(self, client, instructor, round_):
        run = ScoringRun.objects.create(round=round_, status="running", base_checkpoint="x",
                                        progress={"done_folds": 2, "total_folds": 5})
        client.force_login(instructor)
        response = client.post(reverse("collector:scoring_run_cancel", args=[run.pk]))
        assert response["Location"] == reverse("collector:round_detail", args=[round_.pk]) + "#scoring"
        page = round_page(client, round_)
        scoring_section = page.split('id="scoring"', 1)[1]
        assert f"Run {run.pk} cancelled." in scoring_section  # beside the progress bar, not at the top
        assert "Cancelled after 2 of 5 folds; resume it to score the rest." in page
        assert "disabled" not in start_button(page, "cross_validation")
        with mock.patch("collector.services.scoring.scoring_schedule"):
            client.post(reverse("collector:scoring_run_resume", args=[run.pk]))
        assert ScoringRun.objects.get(pk=run.pk).status == "queued"

    def test_starting_opens_at_the_scoring_section_with_its_message_there(self, client, instructor, round_):
        client.force_login(instructor)
        response = client.post(reverse("collector:round_scoring_start", args=[round_.pk]),
                               {"kind": "cross_validation", "folds": 5, "trials": 1})
        assert response["Location"].endswith("#scoring")
        page = round_page(client, round_)
        header, scoring_section = page.split('id="scoring"', 1)
        assert "needs at least 5" in scoring_section and "needs at least 5" not in header

    def test_a_done_run_is_not_cancelled(self, client, instructor, round_):
        run = finished_scoring_run(round_, {})
        client.force_login(instructor)
        client.post(reverse("collector:scoring_run_cancel", args=[run.pk]))
        assert "nothing to cancel" in round_page(client, round_)
        assert ScoringRun.objects.get(pk=run.pk).status == "done"
