"""The round page's scoring section, next-model button and grade download."""
import csv
import io
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from collector.models import Question, ScoringRun, TrainingJob
from collector.services.questions import question_submit
from collector.services.rounds import round_create
from collector.tests.factories import finished_scoring_run, question_data
from courses.services import course_create
from modelhub.services import model_version_default, model_version_register


def url(name, round_) -> str:
    return reverse(f"collector:{name}", args=[round_.pk])


@pytest.fixture
def five_questions(round_, student, fake_model):
    return [
        question_submit(user=student, round_id=round_.pk, **question_data(prompt=f"Prompt {i}. He", correct_index=i % 4))
        for i in range(5)
    ]


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


@pytest.mark.django_db
class ScoringStartTests:
    def test_starts_a_run_and_says_so(self, client, instructor, round_, five_questions):
        client.force_login(instructor)
        with mock.patch("collector.services.scoring.scoring_schedule") as schedule:
            response = client.post(url("round_scoring_start", round_), {"kind": "cross_validation", "folds": 5, "trials": 2},
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
            client.post(url("round_scoring_start", round_), {"kind": "answer_only", "folds": 5, "trials": 1})
        assert ScoringRun.objects.get().kind == "answer_only"

    def test_refusals_are_messages_not_errors(self, client, instructor, round_, five_questions):
        client.force_login(instructor)
        with mock.patch("collector.services.scoring.scoring_schedule"):
            client.post(url("round_scoring_start", round_), {"kind": "cross_validation", "folds": 5, "trials": 1})
            response = client.post(url("round_scoring_start", round_), {"kind": "cross_validation", "folds": 5, "trials": 1},
                                   follow=True)
        assert response.status_code == 200
        assert "already in progress" in messages_of(response)[-1]
        with mock.patch("collector.services.scoring.scoring_schedule"):
            response = client.post(url("round_scoring_start", round_), {"kind": "answer_only", "folds": 10, "trials": 1},
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
        response = client.post(url("round_scoring_start", round_), data, follow=True)
        assert response.status_code == 200
        assert message in messages_of(response)[0]
        assert not ScoringRun.objects.exists()

    def test_bad_round_settings_are_explained(self, client, instructor, round_, five_questions):
        round_.scoring_config = {"epochs": 0}
        round_.save()
        client.force_login(instructor)
        response = client.post(url("round_scoring_start", round_), {"kind": "cross_validation", "folds": 5, "trials": 1},
                               follow=True)
        assert "scoring settings are invalid" in messages_of(response)[0]

    def test_only_instructors_post_only_and_csrf(self, client, student, instructor, round_):
        client.force_login(student)
        assert client.post(url("round_scoring_start", round_), {"kind": "cross_validation"}).status_code == 403
        client.force_login(instructor)
        assert client.get(url("round_scoring_start", round_)).status_code == 405
        strict = Client(enforce_csrf_checks=True)
        strict.force_login(instructor)
        assert strict.post(url("round_scoring_start", round_), {"kind": "cross_validation", "folds": 5}).status_code == 403


@pytest.mark.django_db
class ScoringSectionTests:
    def test_never_scored(self, client, instructor, round_, five_questions):
        client.force_login(instructor)
        page = client.get(url("round_detail", round_)).content.decode()
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
        response = client.get(url("round_detail", round_))
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
        page = client.get(url("round_detail", round_)).content.decode()
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
        page = client.get(url("round_detail", round_)).content.decode()
        assert 'data-testid="cv-accuracy-pooled">' in page
        assert "Few questions per fold" not in page and 'data-field="warning" hidden>' in page

    def test_failed_run_shows_its_error(self, client, instructor, round_):
        finished_scoring_run(round_, {}, status="failed", error="RuntimeError: out of <memory>")
        client.force_login(instructor)
        page = client.get(url("round_detail", round_)).content.decode()
        assert "Failed" in page and "RuntimeError: out of &lt;memory&gt;" in page


@pytest.mark.django_db
class ModelTrainTests:
    def test_queues_the_training(self, client, instructor, round_, course, five_questions, django_capture_on_commit_callbacks):
        next_round = round_create(course=course, name="r2", title="Round two")
        client.force_login(instructor)
        with mock.patch("collector.tasks.training_job_run_task.delay") as delay, \
                django_capture_on_commit_callbacks(execute=True):
            response = client.post(url("round_model_train", round_), {"name": "after-r1", "make_live_round": next_round.pk},
                                   follow=True)
        job = TrainingJob.objects.get()
        delay.assert_called_once_with(job.pk)
        assert (job.round, job.make_live_round, job.created_by) == (round_, next_round, instructor)
        page = response.content.decode()
        assert "after-r1" in page and "Waiting for a worker to start it." in page
        assert "Training of model “after-r1” on all questions so far is queued" in messages_of(response)[0]
        assert "live model of round Round two" in messages_of(response)[0]

    @pytest.mark.parametrize(
        ("name", "message"),
        [("v0-minilm-zero-shot", "already registered"), ("mc-existing", "already exists; choose a new name"),
         ("has space", "no spaces"), ("", "This field is required.")],
    )
    def test_refusals(self, client, instructor, round_, five_questions, name, message):
        model_version_default()
        model_version_register(name="mc-existing", kind="multiple_choice", path="/models/mc-existing")
        client.force_login(instructor)
        with mock.patch("collector.tasks.training_job_run_task.delay") as delay:
            response = client.post(url("round_model_train", round_), {"name": name}, follow=True)
        assert message in messages_of(response)[0] and not delay.called

    def test_no_questions_and_foreign_round(self, client, instructor, other_instructor, round_):
        other_course = course_create(owner=other_instructor, name="Other")
        other_round = round_create(course=other_course, name="elsewhere")
        client.force_login(instructor)
        response = client.post(url("round_model_train", round_), {"name": "m1"}, follow=True)
        assert "has no questions to train on yet" in messages_of(response)[0]
        response = client.post(url("round_model_train", round_), {"name": "m1", "make_live_round": other_round.pk}, follow=True)
        assert "Select a valid choice" in messages_of(response)[0]


@pytest.mark.django_db
class GradesDownloadTests:
    def test_canvas_download(self, client, instructor, graded_round):
        client.force_login(instructor)
        response = client.get(url("round_grades_download", graded_round), {"format": "canvas", "points_possible": "3"})
        assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
        assert response["Content-Disposition"] == f'attachment; filename="stumper-{graded_round.name}-grades-canvas.csv"'
        rows = list(csv.reader(io.StringIO(response.content.decode())))
        assert rows[1][5] == "3" and [row[3] for row in rows[2:]] == ["alice", "bob", "carol"]

    def test_plain_csv_by_default_form_values(self, client, instructor, graded_round):
        client.force_login(instructor)
        response = client.get(url("round_grades_download", graded_round), {"format": "csv"})
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert [(row["username"], row["credit"]) for row in rows] == [("alice", "4"), ("bob", "1"), ("carol", "0")]

    @pytest.mark.parametrize(
        ("params", "message"),
        [({"format": "excel"}, "Format: Select a valid choice."), ({"format": "csv", "points_possible": "-1"}, "greater than or equal to 0"),
         ({"format": "csv", "points_possible": "lots"}, "Enter a number."), ({"format": "csv", "points_possible": "inf"}, "Enter a number.")],
    )
    def test_bad_parameters_are_explained(self, client, instructor, round_, params, message):
        client.force_login(instructor)
        response = client.get(url("round_grades_download", round_), params, follow=True)
        assert response.status_code == 200 and message in messages_of(response)[0]

    def test_students_may_not_download(self, client, student, round_):
        client.force_login(student)
        assert client.get(url("round_grades_download", round_), {"format": "csv"}).status_code == 403


@pytest.mark.django_db
def test_dashboard_shows_cv_result_and_credit(client, student, round_, fake_model):
    question = question_submit(user=student, round_id=round_.pk, **question_data(correct_index=0))
    client.force_login(student)
    page = client.get(reverse("collector:dashboard")).content.decode()
    assert "not scored yet" in page and "(live 1 + cross-validation 0)" in page
    round_.weight_cv = 2.0
    round_.save()
    finished_scoring_run(round_, {question.pk: [False]})
    response = client.get(reverse("collector:dashboard"))
    page = response.content.decode()
    assert response.context["total_credit"] == 3.0
    assert "(live 1 + cross-validation 2)" in page
    assert Question.objects.count() == 1
