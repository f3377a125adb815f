"""Websocket consumer: the progress of one model evaluation, on ``ws/evaluation/model-evaluations/<id>/``.

The reports' protocol (``evaluation/consumers.py``) on the core progress socket:
``{"type": "progress", "run": {id, status, progress, error, display, urls}}`` on connect and on
every change (the worker writes progress to the database, the consumer polls it), ``ping`` ->
``pong``, and an error then close code 4403 for people who may not see the leaderboard.
"""
from core.sockets import ProgressSocketConsumer
from evaluation.models.leaderboards import ModelEvaluation
from evaluation.reports.leaderboard_presentation import evaluation_payload
from evaluation.selectors import leaderboards as leaderboard_selectors


class ModelEvaluationProgressConsumer(ProgressSocketConsumer):
    evaluation_id: int | None = None

    def load(self) -> None:
        evaluation = leaderboard_selectors.model_evaluation_for_user(
            user=self.scope["user"], evaluation_id=self.scope["url_route"]["kwargs"]["evaluation_id"])
        self.evaluation_id = evaluation.pk

    def snapshot(self) -> dict[str, dict]:
        evaluation = leaderboard_selectors.model_evaluation_get(evaluation_id=self.evaluation_id)
        live_id = evaluation.round.live_model_id if evaluation.round_id else None
        return {"progress": {"run": evaluation_payload(evaluation, live_model_id=live_id)}}

    def finished(self, snapshot: dict[str, dict]) -> bool:
        return snapshot["progress"]["run"]["status"] not in ModelEvaluation.ACTIVE  # nothing will change any more
