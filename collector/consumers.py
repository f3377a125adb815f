"""Websocket consumers: live authoring (drafts in, the live model's probabilities out) and
the progress of a round's scoring runs (``ScoringProgressConsumer``, at the end).

Protocol (also in docs/websockets.md): the client sends
``{"type": "draft", "prompt": str, "choices": [4 str], "answer": int | null, "seq": int?}``
and receives ``{"type": "prediction", "probs": [4 floats], "predicted": int,
"model_version": str, "fooled": bool | null, "seq": int | null}`` for its newest draft.
Bad messages get ``{"type": "error", "message": str}`` and the connection stays open; model
trouble gets ``{"type": "status", "state": "loading" | "busy" | "unavailable", "message": str}``
(``loading``: this process is still loading the model, e.g. just after it started; the draft is
answered once it is loaded).

The artifact coach (``selectors/coach.py``, ``services/coach.py``) extends this compatibly: a
draft may carry the authoring form's ``"token"`` (a UUID, so shown warnings can be matched with the
submitted question), and every prediction carries ``"coach": {"warnings": [{"kind": "answer_only" |
"words" | "length" | "duplicate" | "junk", "message": str, ...}]}``. A user who sends more drafts than
``STUMPER_DRAFT_RATE`` per second (bursts of ``STUMPER_DRAFT_BURST``) gets
``{"type": "status", "state": "rate_limited", ...}`` and that draft is dropped.

When the draft marks its answer, the prediction also carries the survival forecast (issue 29 §1,
``presentation/forecast.py``): ``"survival": {"state": "forecast", "likely": bool, "percent": int,
"message": str}`` when the course's stored forecast beats the base rate, else ``{"state": "none",
"message": str}``. It is advice only, never used for credit.
"""
import asyncio
import logging
import uuid
from typing import Any

from channels.db import database_sync_to_async
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from collector.cleaning import clean_question, first_message
from collector.models import Round, SurvivalForecastJob
from collector.presentation.forecast import forecast_job_payload, survival_message
from collector.presentation.scoring import scoring_run_payload
from collector.presentation.training import training_job_payload
from collector.selectors.coach import answer_only_warning
from collector.selectors.coach import text_warnings as coach_text_warnings  # the consumer has its own text_warnings
from collector.selectors.forecast import forecast_for_course, forecast_job_latest
from collector.selectors.rounds import round_for_author, round_for_manager
from collector.selectors.scoring import scoring_runs_latest
from collector.selectors.training import training_jobs_latest
from collector.services.coach import coach_warnings_record
from core.exceptions import AccessError
from core.i18n import socket_language
from core.jobs import job_scope_group
from core.models import BackgroundJob
from core.sockets import ClientError, DraftSocketConsumer, ProgressSocketConsumer
from mlcore.configs import MCExample
from modelhub.inference import inference_service
from modelhub.models import ModelVersion
from modelhub.services import model_version_default

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 16_000
BUSY_MESSAGE = gettext_lazy("The model is busy right now; it will answer your next change. You can still submit.")
UNAVAILABLE_MESSAGE = gettext_lazy(
    "The model is unavailable right now. You can keep writing and submit: "
    "your question is saved and scored on the server as soon as the model is back."
)
LOADING_MESSAGE = gettext_lazy("The model is loading (it takes a moment after the server starts); your draft is "
                               "answered once it is ready.")
RATE_LIMITED_MESSAGE = gettext_lazy("You are sending drafts faster than the model can follow; this one was skipped. "
                                    "Keep writing.")


class AuthorConsumer(DraftSocketConsumer):
    """One author's connection on ``ws/author/<round_id>/``."""

    max_message_bytes = MAX_MESSAGE_BYTES
    rate_key = "author"
    LOADING_MESSAGE, BUSY_MESSAGE = LOADING_MESSAGE, BUSY_MESSAGE
    UNAVAILABLE_MESSAGE, RATE_LIMITED_MESSAGE = UNAVAILABLE_MESSAGE, RATE_LIMITED_MESSAGE

    # Replies go straight back on this socket; nothing is sent to it through the channel layer.
    # Without a layer (an alias that is not configured) a Redis outage can't cut authors off.
    channel_layer_alias = "author-sockets-use-no-channel-layer"
    round: Round | None = None
    version: ModelVersion | None = None
    answer_only_version: ModelVersion | None = None
    forecast: SurvivalForecastJob | None = None

    async def connect(self) -> None:
        await self.accept()
        self.message_language = socket_language(self.scope)  # the author page's language
        self.recorded: set[tuple[uuid.UUID, str]] = set()  # coach warnings already stored
        try:
            self.round = await database_sync_to_async(self._round)()
            self.version = self.round.live_model or await database_sync_to_async(model_version_default)()
            inference_service.warm_up(self.version)
            self.answer_only_version = await database_sync_to_async(lambda: self.round.answer_only_model)()
            # The course's survival forecast as it is now; a newer one is used from the next connection.
            self.forecast = await database_sync_to_async(forecast_for_course)(course_id=self.round.course_id)
            if self.answer_only_version is not None and self.round.coach_answer_only:
                inference_service.warm_up(self.answer_only_version)
        except AccessError as error:
            await self.refuse(error)

    def _round(self) -> Round:
        with self.speaking():  # a refusal is worded in the page's language
            return round_for_author(user=self.scope["user"], round_id=self.scope["url_route"]["kwargs"]["round_id"])

    def accepting(self) -> bool:
        return self.round is not None

    def describe(self) -> str:
        return f"round {self.round.pk}"

    async def on_draft(self, content: dict) -> None:
        seq = self.draft_seq(content)
        if not self.round.is_open():
            raise ClientError(_("This round is closed: it no longer accepts questions."))
        token = self._token(content.get("token"))
        if await self.rate_limited(seq):
            return
        try:
            draft = clean_question(
                prompt=content.get("prompt"), choices=content.get("choices"), answer=content.get("answer"),
                answer_required=False,
            )
        except ValidationError as error:
            raise ClientError(first_message(error)) from None
        self.start_prediction(lambda local_seq: self.predict(draft.prompt, draft.choices, draft.answer, local_seq,
                                                             seq, token))

    @staticmethod
    def _token(value: Any) -> uuid.UUID | None:
        if value is None or value == "":
            return None
        try:
            return uuid.UUID(str(value))
        except ValueError:
            raise ClientError('"token" must be the form\'s question token (a UUID).') from None

    async def predict(self, prompt: str, choices: tuple[str, ...], answer: int | None, local_seq: int, seq: int | None,
                      token: uuid.UUID | None = None) -> None:
        example = MCExample(prompt=prompt, choices=choices)
        # The coach's checks run while the live model works, so they add no waiting: the
        # answer-only model through the same batched service, the text checks in the ORM thread.
        side_tasks = [asyncio.ensure_future(self.text_warnings(example, answer))]
        if answer is not None and self.answer_only_version is not None and self.round.coach_answer_only:
            side_tasks.append(asyncio.ensure_future(self.answer_only_pick(example)))
        try:
            await self._predict(example, answer, local_seq, seq, token, side_tasks)
        finally:
            for task in side_tasks:
                if not task.done():
                    task.cancel()

    async def _predict(self, example: MCExample, answer: int | None, local_seq: int, seq: int | None,
                       token: uuid.UUID | None, side_tasks: list[asyncio.Future]) -> None:
        result = await self.model_answer(inference_service, self.version, example, local_seq, seq)
        if result is None:
            return
        text, *answer_only = await asyncio.gather(*side_tasks)
        pick = answer_only[0] if answer_only else None
        warnings = answer_only_warning(round_=self.round, answer=answer, answer_only_pick=pick) + text
        await self.record(warnings, token)
        if not self.is_latest(local_seq):
            return
        message = {
            "type": "prediction",
            "probs": list(result.probs),
            "predicted": result.predicted,
            "model_version": self.version.name,
            "fooled": None if answer is None else result.predicted != answer,
            "seq": seq,
            "coach": {"warnings": warnings},
        }
        if answer is not None:  # advice only (issue 29 §1): credit never reads the survival forecast
            with self.speaking():
                message["survival"] = survival_message(
                    self.forecast, prompt=example.prompt, choices=example.choices, answer=answer,
                    probs=result.probs, answer_only_pick=pick, warnings=warnings)
        await self.send_json(message)

    async def answer_only_pick(self, example: MCExample) -> int | None:
        """The answer-only model's pick, or None when it fails (the warning is then skipped)."""
        if not inference_service.model_ready(self.answer_only_version):
            return None  # still loading (warm_up on connect): the live model's answer must not wait for it
        try:
            result = await inference_service.predict_draft(
                version=self.answer_only_version, key=(id(self), "answer-only"), example=example
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.warning("Answer-only model %s failed on a draft", self.answer_only_version.name, exc_info=True)
            return None
        return None if result is None else result.predicted

    async def text_warnings(self, example: MCExample, answer: int | None) -> list[dict]:
        """Duplicates, words and length; an empty list if the check fails (the coach advises, it
        must never take the model's answer away)."""
        try:
            return await database_sync_to_async(coach_text_warnings)(
                round_=self.round, author_id=self.scope["user"].pk, prompt=example.prompt, choices=example.choices,
                answer=answer,
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("The coach failed on a draft in round %s", self.round.pk)
            return []

    async def record(self, warnings: list[dict], token: uuid.UUID | None) -> None:
        """Store each kind of warning once per question (the form's token)."""
        fresh = [w for w in warnings if token is not None and (token, w["kind"]) not in self.recorded]
        if not fresh:
            return
        try:
            await database_sync_to_async(coach_warnings_record)(
                author_id=self.scope["user"].pk, round_=self.round, token=token, warnings=fresh
            )
        except Exception:
            logger.exception("Could not record the coach's warnings in round %s", self.round.pk)
            return
        self.recorded.update((token, w["kind"]) for w in fresh)


class ScoringProgressConsumer(ProgressSocketConsumer):
    """The round's newest scoring run of each kind and training jobs, for its instructors, on
    ``ws/rounds/<round_id>/scoring/``.

    Sends ``{"type": "scoring", "runs": [{id, kind, status, progress, summary, error, display}]}``
    and ``{"type": "training", "jobs": [{id, name, status, error, display}]}`` on connect and
    whenever a run or job changed: every run and training job of the round is pushed to the
    round's group (``push_scopes``), which this socket joins, so a run started after the page
    opened is shown too. The client may send ``{"type": "ping"}``.
    """

    round: Round | None = None

    def load(self) -> None:
        self.round = round_for_manager(user=self.scope["user"],
                                                 round_id=self.scope["url_route"]["kwargs"]["round_id"])

    def push_groups(self) -> list[str]:
        return [job_scope_group("round", self.round.pk)]

    def finished(self, snapshot: dict[str, dict]) -> bool:
        jobs = [*snapshot["scoring"]["runs"], *snapshot["training"]["jobs"], *snapshot.get("forecast", {}).get("jobs", [])]
        return all(job["status"] not in BackgroundJob.ACTIVE for job in jobs)

    def snapshot(self) -> dict[str, dict]:
        runs = [scoring_run_payload(run) for run in scoring_runs_latest(round_=self.round)]
        jobs = [training_job_payload(job) for job in training_jobs_latest(round_=self.round)]
        parts = {"scoring": {"runs": runs}, "training": {"jobs": jobs}}
        forecast = forecast_job_latest(round_=self.round)
        if forecast is not None:  # the survival forecast's card (templates/includes/job_progress.html) follows it
            parts["forecast"] = {"jobs": [forecast_job_payload(forecast)]}
        return parts
