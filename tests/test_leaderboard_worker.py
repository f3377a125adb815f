"""A model evaluation in a real Celery worker process that is killed mid-run: nothing is stored
by the killed attempt, and the next worker runs it again from the start and says so."""
import pytest

from collector.tests.factories import add_toy_questions
from evaluation.models.leaderboards import ModelEvaluation
from evaluation.services import leaderboards as leaderboard_services
from tests.worker import celery_worker, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# Enough questions that the tiny model needs a few seconds: time to kill the worker.
QUESTIONS = 4000


def test_killed_worker_leaves_nothing_and_the_next_one_reruns_the_evaluation(open_round, student, tiny_model_version,
                                                                             real_broker, tmp_path):
    add_toy_questions(open_round, student, QUESTIONS, seed=3, status="accepted")
    evaluation = leaderboard_services.model_evaluation_start(model_version=tiny_model_version, round_=open_round)
    first_log, second_log = tmp_path / "worker-1.log", tmp_path / "worker-2.log"

    def answering() -> bool:
        progress = ModelEvaluation.objects.get(pk=evaluation.pk).progress
        return progress.get("stage") == "Answering the questions" and progress.get("percent", 0) > 6

    with celery_worker(first_log) as worker:
        wait_for(answering, timeout=400, log_path=first_log)
        worker.kill()  # SIGKILL: no warm shutdown, no acknowledgement
        worker.wait()
    evaluation.refresh_from_db()
    assert evaluation.status == ModelEvaluation.Status.RUNNING and evaluation.result == {}
    assert 6 < evaluation.progress["percent"] < 100 and evaluation.progress["attempt"] == 1

    with celery_worker(second_log):
        wait_for(lambda: ModelEvaluation.objects.get(pk=evaluation.pk).status not in ModelEvaluation.ACTIVE,
                 timeout=400, log_path=second_log)
    evaluation.refresh_from_db()
    assert evaluation.status == ModelEvaluation.Status.DONE, evaluation.error
    assert evaluation.progress["attempt"] == 2 and "interrupted attempt stored nothing" in evaluation.progress["note"]
    assert evaluation.result["accuracy"]["n"] == QUESTIONS and len(evaluation.result["predictions"]) == QUESTIONS
