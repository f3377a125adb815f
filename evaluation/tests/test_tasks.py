"""The model evaluation's Celery task, eager and queued on commit as in production."""
import pytest

from evaluation.models.leaderboards import ModelEvaluation
from evaluation.services import leaderboards as leaderboard_services

pytestmark = pytest.mark.django_db


class ModelEvaluationTaskTests:
    def test_starting_queues_the_task_on_commit_and_the_worker_finishes_it(
            self, board_round, tiny_model_version, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            evaluation = leaderboard_services.model_evaluation_start(model_version=tiny_model_version,
                                                                     round_=board_round)
        # The start queues one task on commit; the eager worker's claim, progress and end each push the
        # job to its sockets once their write commits (core.jobs.job_push).
        started, *pushed = callbacks
        assert "model_evaluation_start" in started.__qualname__ and pushed
        assert all(callback.__qualname__ == "job_push.<locals>.send" for callback in pushed)
        evaluation.refresh_from_db()
        assert evaluation.status == ModelEvaluation.Status.DONE, evaluation.error
        assert evaluation.result["accuracy"]["n"] == 5

    def test_the_task_stores_a_load_failure(self, board_round, broken_version, django_capture_on_commit_callbacks):
        from evaluation.tasks import model_evaluation_run_task

        with django_capture_on_commit_callbacks(execute=False):
            evaluation = leaderboard_services.model_evaluation_start(model_version=broken_version, round_=board_round)
        model_evaluation_run_task.delay(evaluation.pk)
        evaluation.refresh_from_db()
        assert evaluation.status == ModelEvaluation.Status.FAILED and "could not be loaded" in evaluation.error
