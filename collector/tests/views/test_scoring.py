"""``views/scoring.py``: the round page's scoring section: start (disabled while a run is active), cancel, resume, and the page opening at the scoring section with its message there."""
from datetime import timedelta
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from collector.models import Question, ScoringRun
from collector.tests.factories import finished_scoring_run, messages_of, round_page_url

pytestmark = pytest.mark.django_db


@pytest.mark.django_db
class ScoringStartTests:
    def test_starts_a_run_and_says_so(self, client, instructor, round_, five_questions):
        client.force_login(instructor)
        with mock.patch("collector.services.scoring.scoring_schedule") as schedule:
            response = client.post(round_page_url("round_scoring_start", round_), {"kind": "cross_validation", "folds": 5, "trials": 2},
                                   follow=True)
        run = ScoringRun.objects.get()
        assert (run.kind, run.folds, run.trials, run.created_by) == ("cross_validation", 5, 2, instructor)
        assert schedule.call_count == 0  # enqueued on commit (the test transaction never commits)
        assert f"Cross-validation run {run.pk} of 5 folds queued" in messages_of(response)[0]
        page = response.content.decode()
        assert "Waiting for a worker to start it." in page and "Queued" in page

    def test_answer_only_baseline(self, client, instructor, round_, five_questions):
        client.force_login(instructor)
        with mock.patch("collector.services.scoring.scoring_schedule"):
            client.post(round_page_url("round_scoring_start", round_), {"kind": "answer_only", "folds": 5, "trials": 1})
        assert ScoringRun.objects.get().kind == "answer_only"

    def test_refusals_are_messages_not_errors(self, client, instructor, round_, five_questions):
        client.force_login(instructor)
        with mock.patch("collector.services.scoring.scoring_schedule"):
            client.post(round_page_url("round_scoring_start", round_), {"kind": "cross_validation", "folds": 5, "trials": 1})
            response = client.post(round_page_url("round_scoring_start", round_), {"kind": "cross_validation", "folds": 5, "trials": 1},
                                   follow=True)
        assert response.status_code == 200
        assert "already in progress" in messages_of(response)[-1]
        with mock.patch("collector.services.scoring.scoring_schedule"):
            response = client.post(round_page_url("round_scoring_start", round_), {"kind": "answer_only", "folds": 10, "trials": 1},
                                   follow=True)
        assert "has 5 question(s); 10-fold scoring needs at least 10" in messages_of(response)[0]
        assert ScoringRun.objects.count() == 1

    @pytest.mark.parametrize(
        ("data", "message"),
        [
            ({"kind": "cross_validation", "folds": 1, "trials": 1}, "Folds: Ensure this value is greater than or equal to 2."),
            ({"kind": "cross_validation", "folds": "many", "trials": 1}, "Folds: Enter a whole number."),
            ({"kind": "cross_validation", "folds": 5, "trials": 50}, "Trials: Ensure this value is less than or equal to 10."),
            ({"kind": "everything", "folds": 5, "trials": 1}, "Kind: Select a valid choice."),
            ({}, "This field is required."),
        ],
    )
    def test_bad_input_is_explained(self, client, instructor, round_, data, message):
        client.force_login(instructor)
        response = client.post(round_page_url("round_scoring_start", round_), data, follow=True)
        assert response.status_code == 200
        assert message in messages_of(response)[0]
        assert not ScoringRun.objects.exists()

    def test_bad_round_settings_are_explained(self, client, instructor, round_, five_questions):
        round_.scoring_config = {"epochs": 0}
        round_.save()
        client.force_login(instructor)
        response = client.post(round_page_url("round_scoring_start", round_), {"kind": "cross_validation", "folds": 5, "trials": 1},
                               follow=True)
        assert "scoring settings are invalid" in messages_of(response)[0]

    def test_only_instructors_post_only_and_csrf(self, client, student, instructor, round_):
        client.force_login(student)
        assert client.post(round_page_url("round_scoring_start", round_), {"kind": "cross_validation"}).status_code == 403
        client.force_login(instructor)
        assert client.get(round_page_url("round_scoring_start", round_)).status_code == 405
        strict = Client(enforce_csrf_checks=True)
        strict.force_login(instructor)
        assert strict.post(round_page_url("round_scoring_start", round_), {"kind": "cross_validation", "folds": 5}).status_code == 403


@pytest.mark.django_db
class ScoringSectionTests:
    def test_never_scored(self, client, instructor, round_, five_questions):
        client.force_login(instructor)
        page = client.get(round_page_url("round_detail", round_)).content.decode()
        assert "Score in cross-validation" in page and "Run answer-only baseline" in page
        assert page.count("Not run yet.") == 2
        assert f'data-socket-path="/ws/rounds/{round_.pk}/scoring/"' in page
        assert "js/scoring.js" in page
        assert page.count("not scored yet") == 5  # the question table's CV column

    def test_finished_runs_show_summaries_and_question_results(self, client, instructor, round_, five_questions):
        ids = [q.pk for q in five_questions]
        finished_scoring_run(round_, {ids[0]: [False, False], ids[1]: [False, True], ids[2]: [True, True],
                                      ids[3]: [True, True], ids[4]: [True, True]})
        finished_scoring_run(round_, {pk: [pk == ids[0]] for pk in ids}, kind="answer_only")
        client.force_login(instructor)
        response = client.get(round_page_url("round_detail", round_))
        page = response.content.decode()
        # Folds (round-robin) {0, 2, 4} and {1, 3}: pooled 7/10; per trial (2/3 + 1/2)/2 and (2/3 + 1)/2.
        assert ("CV accuracy (pooled) 70.0% of 5 questions × 2 trials. "
                "Mean per-fold accuracy (CODAH) 70.8% ± 5.0 (std over 2 trials).") in page
        assert "Answer-only accuracy 20.0% vs 25% chance (one-sided binomial test p = 0.0123)." in page
        assert "Accuracy per fold" in page and "Fold 2" in page
        rows = {row.question.pk: row for row in response.context["rows"]}
        assert rows[ids[0]].cv_text == "yes" and rows[ids[1]].cv_text == "50% of trials" and rows[ids[2]].cv_text == "no"
        # fake_model picks D: question 0 (key A) fooled live; credit = live 1 + CV 1
        assert rows[ids[0]].credit == 2.0 and rows[ids[1]].credit == 1.5 and rows[ids[3]].credit == 0.0
        assert response.context["stats"]["scored_cv"] == 5

    def test_pooled_and_per_fold_accuracy_are_named_apart_with_a_small_fold_warning(self, client, instructor, round_,
                                                                                     student):
        # The page: 9 questions in 5 folds (2, 2, 2, 2, 1), one answered right.
        ids = [Question.objects.create(round=round_, author=student, prompt=f"P{i}. He", choices=list("abcd"),
                                       correct_index=0).pk for i in range(9)]
        finished_scoring_run(round_, {pk: [pk == ids[0]] for pk in ids}, folds=5)
        client.force_login(instructor)
        page = client.get(round_page_url("round_detail", round_)).content.decode()
        # 1/9 pooled; (1/2 + 0 + 0 + 0 + 0) / 5 over folds. Only the pooled one has the headline's place.
        assert '<dt>CV accuracy (pooled)</dt><dd data-testid="cv-accuracy-pooled">11.1%</dd>' in page
        assert "CV accuracy (pooled) 11.1% of 9 questions. Mean per-fold accuracy (CODAH) 10.0%." in page
        assert "<dt>CV accuracy</dt>" not in page and "Cross-validation accuracy" not in page
        warning = "Few questions per fold: the smallest holds 1 (fewer than 20), so one question moves a fold&#x27;s " \
                  "accuracy by 100 points; read these accuracies as rough."
        assert f'data-testid="cv-warning">{warning}</dd>' in page  # next to the stat
        assert f'data-field="warning">{warning}</p>' in page  # and on the scoring card
        assert "Fold 5 (1)" in page

    def test_no_warning_when_every_fold_holds_enough_questions(self, client, instructor, round_, student):
        ids = [Question.objects.create(round=round_, author=student, prompt=f"P{i}. He", choices=list("abcd"),
                                       correct_index=0).pk for i in range(40)]
        finished_scoring_run(round_, {pk: [pk % 3 == 0] for pk in ids}, folds=2)
        client.force_login(instructor)
        page = client.get(round_page_url("round_detail", round_)).content.decode()
        assert 'data-testid="cv-accuracy-pooled">' in page
        assert "Few questions per fold" not in page and 'data-field="warning" hidden>' in page

    def test_failed_run_shows_its_error(self, client, instructor, round_):
        finished_scoring_run(round_, {}, status="failed", error="RuntimeError: out of <memory>")
        client.force_login(instructor)
        page = client.get(round_page_url("round_detail", round_)).content.decode()
        assert "Failed" in page and "RuntimeError: out of &lt;memory&gt;" in page


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

    def test_a_run_whose_worker_died_shows_stalled_not_a_frozen_time_left(self, client, instructor, round_):
        silent_since = timezone.now() - timedelta(minutes=9)
        ScoringRun.objects.create(round=round_, status="running", base_checkpoint="x", folds=5,
                                  started_at=silent_since, heartbeat_at=silent_since,
                                  progress={"stage": "training", "fold": 1, "done_folds": 1, "total_folds": 5,
                                            "step": 4, "total_steps": 10, "eta_seconds": 43})
        client.force_login(instructor)
        page = round_page(client, round_)
        assert "stalled: no worker has reported for 9 minutes" in page and "about 0:43 left" not in page
        api = client.get(reverse("api:scoring_run_list", args=[round_.pk])).json()["results"][0]
        assert api["stalled"] is True and api["display"]["progress"] == "stalled: no worker has reported for 9 minutes"

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
