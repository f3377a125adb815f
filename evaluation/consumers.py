"""Websocket consumers of the evaluation app: the progress of one report or one model evaluation.

``ws/evaluation/runs/<run_id>/`` (a report) and ``ws/evaluation/model-evaluations/<id>/`` (a
leaderboard entry) speak one protocol, the core progress socket's: ``{"type": "progress", "run":
{id, status, progress, error, display, urls}}`` on connect and whenever the worker pushed a change
of the job (``core.jobs.job_push`` to the job's group, which the socket joins). The client may send
``{"type": "ping"}``; anything else gets an error message. Only people who may see the report
(or the leaderboard) may connect (others get an error, then close code 4403).
"""
from core.jobs import job_group
from core.models import BackgroundJob
from core.sockets import ProgressSocketConsumer
from evaluation.models import EvaluationRun, ModelEvaluation
from evaluation.reports.leaderboards import evaluation_payload
from evaluation.reports.presentation import run_payload
from evaluation.selectors import leaderboards as leaderboard_selectors
from evaluation.selectors import reports as report_selectors


class _JobProgressConsumer(ProgressSocketConsumer):
    """Follows one job: joins its group (``core.jobs.job_group``)."""

    model: type[BackgroundJob]
    job_id: int | None = None

    def push_groups(self) -> list[str]:
        return [job_group(self.model, self.job_id)]

    def finished(self, snapshot: dict[str, dict]) -> bool:
        return snapshot["progress"]["run"]["status"] not in BackgroundJob.ACTIVE


class EvaluationProgressConsumer(_JobProgressConsumer):
    model = EvaluationRun

    def load(self) -> None:
        run = report_selectors.evaluation_run_for_user(user=self.scope["user"],
                                                       run_id=self.scope["url_route"]["kwargs"]["run_id"])
        self.job_id = run.pk

    def snapshot(self) -> dict[str, dict]:
        return {"progress": {"run": run_payload(report_selectors.evaluation_run_get(run_id=self.job_id))}}


class ModelEvaluationProgressConsumer(_JobProgressConsumer):
    model = ModelEvaluation

    def load(self) -> None:
        evaluation = leaderboard_selectors.model_evaluation_for_user(
            user=self.scope["user"], evaluation_id=self.scope["url_route"]["kwargs"]["evaluation_id"])
        self.job_id = evaluation.pk

    def snapshot(self) -> dict[str, dict]:
        evaluation = leaderboard_selectors.model_evaluation_get(evaluation_id=self.job_id)
        live_id = evaluation.round.live_model_id if evaluation.round_id else None
        return {"progress": {"run": evaluation_payload(evaluation, live_model_id=live_id)}}
