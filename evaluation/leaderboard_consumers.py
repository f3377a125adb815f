"""Websocket consumer: the progress of one model evaluation, on ``ws/evaluation/model-evaluations/<id>/``.

The same protocol as the reports' consumer (``evaluation/consumers.py``), which it extends:
``{"type": "progress", "run": {id, status, progress, error, display, urls}}`` on connect and on
every change (the worker writes progress to the database, the consumer polls it), ``ping`` ->
``pong``, and an error then close code 4403 for people who may not see the leaderboard.
"""
import asyncio

from channels.db import database_sync_to_async

from collector.exceptions import AccessError
from evaluation import leaderboard_selectors
from evaluation.consumers import EvaluationProgressConsumer
from evaluation.leaderboard_presentation import evaluation_payload


class ModelEvaluationProgressConsumer(EvaluationProgressConsumer):
    async def connect(self) -> None:
        await self.accept()
        self.poller = None
        try:
            evaluation = await database_sync_to_async(leaderboard_selectors.model_evaluation_for_user)(
                user=self.scope["user"], evaluation_id=self.scope["url_route"]["kwargs"]["evaluation_id"]
            )
        except AccessError as error:
            await self.send_json({"type": "error", "message": error.message})
            await self.close(code=4403)
            return
        self.run_id = evaluation.pk
        self.last = None
        self.poller = asyncio.ensure_future(self.poll())

    def snapshot(self) -> dict:
        evaluation = leaderboard_selectors.model_evaluation_get(evaluation_id=self.run_id)
        live_id = evaluation.round.live_model_id if evaluation.round_id else None
        return evaluation_payload(evaluation, live_model_id=live_id)
