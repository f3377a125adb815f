"""``services/forecast.py``: a course's survival forecast trained as a job from its scored rounds,
stored with its quality, and shown to authors only when it beats the base rate (issue 29 §1).

Courses are simulated: each question gets a live prediction and a cross-validation outcome. With a
planted signal (the live model's probability of the right completion drives survival through a
known logistic curve) the forecast is stored as usable and shown; on pure noise it is not shown.
"""
from unittest import mock

import pytest

from collector.models import SurvivalForecastJob
from collector.presentation.forecast import forecast_is_shown, survival_message
from collector.selectors.forecast import forecast_for_course, forecast_training_data
from collector.services.forecast import forecast_after_scoring, forecast_job_run, forecast_job_start
from collector.tests.forecast_factories import CHOICES, scored_course_round
from mlcore.stats.survival import fit_survival

pytestmark = pytest.mark.django_db

def train(round_) -> SurvivalForecastJob:
    with mock.patch("collector.services.forecast.task_enqueue"):
        job = forecast_job_start(round_=round_)
    return forecast_job_run(job_id=job.pk)


def draft(round_, right: float) -> dict:
    rest = (1 - right) / 3
    return survival_message(forecast_for_course(course_id=round_.course_id), prompt="It rained, so we",
                            choices=CHOICES, answer=0, probs=[right, rest, rest, rest], answer_only_pick=None,
                            warnings=[])


def test_training_gathers_every_scored_question_with_its_outcome(round_, student):
    run, survived = scored_course_round(round_, student, 60, planted=True, seed=1)
    data = forecast_training_data(course=round_.course)
    assert len(data.features) == 60 and data.survived == [bool(s) for s in survived]
    assert data.round_ids == [round_.pk] and data.run_ids == [run.pk]
    assert sorted(set(data.folds)) == [0, 1, 2, 3, 4]


def test_the_job_stores_the_forecast_with_its_size_and_held_out_quality(round_, student):
    run, survived = scored_course_round(round_, student, 300, planted=True, seed=2)
    job = train(round_)
    assert job.status == "done" and job.error == ""
    assert job.n_train == 300 and job.n_survived == int(survived.sum())
    assert job.source_rounds == [round_.pk] and job.source_runs == [run.pk]
    # The stored quality is the pure fit's on the same data and folds (an independent recomputation).
    data = forecast_training_data(course=round_.course)
    reference = fit_survival(data.features, data.survived, folds=data.folds)
    assert job.brier == pytest.approx(reference.quality.brier)
    assert job.brier_base == pytest.approx(reference.quality.brier_base)
    assert job.auc == pytest.approx(reference.quality.auc)
    assert job.calibration_slope == pytest.approx(reference.quality.calibration_slope)
    assert job.params["coefficients"] == pytest.approx(list(reference.coefficients))


def test_a_planted_signal_is_shown_to_authors_the_right_way_round(round_, student):
    scored_course_round(round_, student, 300, planted=True, seed=3)
    job = train(round_)
    assert job.usable and job.brier < job.brier_base and forecast_is_shown(job)
    sure = draft(round_, 0.9)  # the live model is sure of the right answer: cross-validation finds it too
    fooled = draft(round_, 0.05)
    assert sure["state"] == fooled["state"] == "forecast"
    assert sure["likely"] is False and fooled["likely"] is True
    assert fooled["percent"] > 50 > sure["percent"]
    assert f"about {fooled['percent']}%" in fooled["message"] and fooled["message"].startswith("Likely")


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_pure_noise_gets_no_forecast_shown(round_, student, seed):
    scored_course_round(round_, student, 200, planted=False, seed=seed)
    job = train(round_)
    assert job.status == "done" and job.n_train == 200
    assert not forecast_is_shown(job)
    assert draft(round_, 0.05) == {"state": "none", "message": "Survival forecast: not enough scored questions yet."}


def test_too_few_scored_questions_store_no_model(round_, student):
    scored_course_round(round_, student, 12, planted=True, seed=7)
    job = train(round_)
    assert job.status == "done" and job.n_train == 12 and job.params == {} and job.brier is None
    assert draft(round_, 0.05)["state"] == "none"


def test_a_course_without_a_forecast_says_not_enough(round_):
    assert draft(round_, 0.05)["state"] == "none"


def test_one_training_per_course_at_a_time(round_, student):
    with mock.patch("collector.services.forecast.task_enqueue") as enqueue:
        first = forecast_job_start(round_=round_)
        assert forecast_after_scoring(round_id=round_.pk) == first
    assert SurvivalForecastJob.objects.count() == 1
    assert forecast_after_scoring(round_id=10**9) is None
    assert enqueue.call_count <= 1


def test_finished_cross_validation_queues_the_forecast(round_, student, django_capture_on_commit_callbacks):
    """The hook at the end of scoring, without fine-tuning: a run whose folds are all stored is finished."""
    from collector.models import ScoringRun, ScoringRunAssignment
    from collector.services.scoring_folds import scoring_finish_if_complete

    run, _ = scored_course_round(round_, student, 12, planted=True, seed=8)
    ScoringRunAssignment.objects.bulk_create(ScoringRunAssignment(run=run, question_id=p.question_id, trial=0,
                                                                  fold=p.fold) for p in run.predictions.all())
    ScoringRun.objects.filter(pk=run.pk).update(status=ScoringRun.Status.RUNNING)
    run.refresh_from_db()
    with mock.patch("collector.services.scoring_folds.task_enqueue") as enqueue, \
            django_capture_on_commit_callbacks(execute=True):
        assert scoring_finish_if_complete(run)
    enqueue.assert_any_call("collector.forecast_after_scoring", round_.pk)


def test_the_author_line_is_worded_in_persian(round_, student):
    from django.utils import translation

    scored_course_round(round_, student, 300, planted=True, seed=3)
    train(round_)
    with translation.override("fa"):
        shown = draft(round_, 0.05)
    assert shown["state"] == "forecast" and "Likely" not in shown["message"]
    assert "٪" in shown["message"] or "%" in shown["message"]
