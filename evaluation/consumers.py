"""Websocket consumer: the progress of one evaluation run, on ``ws/evaluation/runs/<run_id>/``.

Sends ``{"type": "progress", "run": {id, status, progress, error, display, urls}}`` on connect and
whenever the run changed. The worker writes progress to the database from another process, so
the consumer polls it (through a selector, once a second) instead of waiting for a group message:
that works the same with the in-memory channel layer and with Redis (as the collector's scoring
consumer does). The client may send ``{"type": "ping"}``; anything else gets an error message.
Only people who may see the report may connect (others get an error, then close code 4403).
"""
from core.sockets import ProgressSocketConsumer
from evaluation.models import EvaluationRun
from evaluation.reports.presentation import run_payload
from evaluation.selectors import reports as selectors


class EvaluationProgressConsumer(ProgressSocketConsumer):
    run_id: int | None = None

    def load(self) -> None:
        run = selectors.evaluation_run_for_user(user=self.scope["user"],
                                                run_id=self.scope["url_route"]["kwargs"]["run_id"])
        self.run_id = run.pk

    def snapshot(self) -> dict[str, dict]:
        return {"progress": {"run": run_payload(selectors.evaluation_run_get(run_id=self.run_id))}}

    def finished(self, snapshot: dict[str, dict]) -> bool:
        return snapshot["progress"]["run"]["status"] not in EvaluationRun.ACTIVE  # nothing will change any more
