"""The weights of a finished report for dataset exports: which reports qualify and what each refusal says."""
import numpy as np
import pytest
from django.core.exceptions import ValidationError

from collector import services as collector_services
from evaluation.models import EvaluationRun
from evaluation.selectors.exports import evaluation_run_weights, evaluation_runs_with_weights
from evaluation.services import reports as services
from evaluation.tests.factories import finished_report, span_project

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_run(artifact_round, instructor):
    return finished_report(instructor, round_=artifact_round)


@pytest.fixture
def nile(instructor):
    return span_project(instructor)


def stored_rows(run):
    return run.result["lexical"]["tables"]["weights"]["rows"]


def refusal(code, **kwargs) -> str:
    with pytest.raises(ValidationError) as caught:
        evaluation_run_weights(**kwargs)
    assert caught.value.code == code
    return caught.value.messages[0]


class EvaluationRunWeightsTests:
    def test_a_round_report_weighs_every_completion(self, round_run, artifact_round):
        weights = evaluation_run_weights(run_id=round_run.pk, round_=artifact_round)

        question_ids = list(artifact_round.questions.order_by("id").values_list("pk", flat=True))
        assert list(weights) == [(qid, choice) for qid in question_ids for choice in range(4)]
        assert weights == {(row[0], row[1]): row[3] for row in stored_rows(round_run)}
        assert np.mean(list(weights.values())) == pytest.approx(1.0, abs=1e-5)

    def test_a_project_report_weighs_the_train_questions(self, nile, instructor, no_probes):
        run = finished_report(instructor, project=nile)

        weights = evaluation_run_weights(run_id=run.pk, project=nile)

        train = nile.questions.filter(paragraph__article__split="train", status="submitted").order_by("id")
        assert list(weights) == [(q.pk, q.qid) for q in train]
        assert len(weights) == 8 and all(w > 0 for w in weights.values())

    def test_a_report_of_another_target_is_refused_like_a_missing_one(self, round_run, course, nile):
        other = collector_services.round_create(course=course, name="other-round")
        message = refusal("not_found", run_id=round_run.pk, round_=other)
        assert message == f"Evaluation report {round_run.pk} is not a report of round other-round."
        assert refusal("not_found", run_id=round_run.pk, project=nile) == (
            f"Evaluation report {round_run.pk} is not a report of project nile-eval.")
        assert refusal("not_found", run_id=round_run.pk + 1000, round_=round_run.round).startswith(
            f"Evaluation report {round_run.pk + 1000} is not a report of round")

    def test_an_unfinished_report_has_no_weights(self, artifact_round, instructor):
        queued = services.evaluation_start_round(round_=artifact_round, user=instructor)  # no worker ran it
        assert refusal("not_finished", run_id=queued.pk, round_=artifact_round) == (
            f"Evaluation report {queued.pk} has not finished (it is queued); only a finished report has weights.")
        EvaluationRun.objects.filter(pk=queued.pk).update(status=EvaluationRun.Status.FAILED)
        assert "(it is failed)" in refusal("not_finished", run_id=queued.pk, round_=artifact_round)

    def test_a_report_without_a_weights_table_says_why(self, round_, instructor):
        run = finished_report(instructor, round_=round_)  # the round has no questions yet
        assert run.status == EvaluationRun.Status.DONE
        assert refusal("no_weights", run_id=run.pk, round_=round_) == (
            f"Evaluation report {run.pk} has no weights table (The round has no questions yet.).")

    def test_weights_in_an_unknown_layout_are_refused(self, round_run, artifact_round):
        result = round_run.result
        result["lexical"]["tables"]["weights"]["columns"] = ["question_id", "label", "weight"]
        EvaluationRun.objects.filter(pk=round_run.pk).update(result=result)
        assert "unknown layout" in refusal("bad_layout", run_id=round_run.pk, round_=artifact_round)

    def test_exactly_one_target(self, round_run, artifact_round, nile):
        with pytest.raises(TypeError):
            evaluation_run_weights(run_id=round_run.pk)
        with pytest.raises(TypeError):
            evaluation_run_weights(run_id=round_run.pk, round_=artifact_round, project=nile)


class EvaluationRunsWithWeightsTests:
    def test_only_finished_reports_of_the_target_with_weights_newest_first(self, round_run, artifact_round, course,
                                                                            instructor):
        second = finished_report(instructor, round_=artifact_round)
        services.evaluation_start_round(round_=artifact_round, user=instructor)  # queued, no weights yet
        empty_round = collector_services.round_create(course=course, name="empty-round")
        finished_report(instructor, round_=empty_round)  # finished, but nothing to weigh

        assert list(evaluation_runs_with_weights(round_=artifact_round)) == [second, round_run]
        assert not evaluation_runs_with_weights(round_=empty_round).exists()
