"""Websocket consumers: live authoring (drafts in, the live model's probabilities out) and
the progress of a round's scoring runs (``ScoringProgressConsumer``, at the end).

Protocol (also in the README): the client sends
``{"type": "draft", "prompt": str, "choices": [4 str], "answer": int | null, "seq": int?}``
and receives ``{"type": "prediction", "probs": [4 floats], "predicted": int,
"model_version": str, "fooled": bool | null, "seq": int | null}`` for its newest draft.
Bad messages get ``{"type": "error", "message": str}`` and the connection stays open; model
trouble gets ``{"type": "status", "state": "busy" | "unavailable", "message": str}``.
"""
import asyncio
import json
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.core.exceptions import ValidationError

from collector import selectors, services
from collector.exceptions import AccessError
from collector.inference import inference_service
from collector.models import ModelVersion, Round
from collector.presentation import scoring_run_payload, training_job_payload
from collector.validation import clean_question, first_message
from mlcore.configs import MCExample
from mlcore.serving import BatcherOverloaded

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 16_000
BUSY_MESSAGE = "The model is busy right now; it will answer your next change. You can still submit."
UNAVAILABLE_MESSAGE = (
    "The model is unavailable right now. You can keep writing and submit: "
    "your question is saved and scored on the server as soon as the model is back."
)


class ClientError(Exception):
    """A mistake in what the client sent; its message goes back as an error message."""


class AuthorConsumer(AsyncJsonWebsocketConsumer):
    """One author's connection on ``ws/author/<round_id>/``."""

    round: Round | None = None
    version: ModelVersion | None = None

    async def connect(self) -> None:
        await self.accept()
        self.latest_seq = 0
        self.pending: asyncio.Task | None = None
        try:
            self.round = await database_sync_to_async(selectors.round_for_author)(
                user=self.scope["user"], round_id=self.scope["url_route"]["kwargs"]["round_id"]
            )
            self.version = self.round.live_model or await database_sync_to_async(services.model_version_default)()
            inference_service.warm_up(self.version)
        except AccessError as error:
            await self.send_json({"type": "error", "message": error.message})
            await self.close(code=4403)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "pending", None) is not None:
            self.pending.cancel()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs) -> None:
        # Overridden so that a message that is not JSON gets an error instead of closing the socket.
        if self.round is None:
            return
        try:
            if text_data is None:
                raise ClientError("Send JSON text messages, not binary data.")
            if len(text_data) > MAX_MESSAGE_BYTES:
                raise ClientError(f"Message too large (at most {MAX_MESSAGE_BYTES} characters).")
            try:
                content = json.loads(text_data)
            except json.JSONDecodeError:
                raise ClientError("Message is not valid JSON.") from None
            await self.receive_json(content)
        except ClientError as error:
            await self.send_json({"type": "error", "message": str(error)})

    async def receive_json(self, content: Any, **kwargs) -> None:
        if not isinstance(content, dict):
            raise ClientError('Send a JSON object with a "type" field.')
        handlers = {"draft": self.on_draft, "ping": self.on_ping}
        handler = handlers.get(content.get("type"))
        if handler is None:
            raise ClientError(f'Unknown message type {content.get("type")!r}; expected "draft" or "ping".')
        await handler(content)

    async def on_ping(self, content: dict) -> None:
        await self.send_json({"type": "pong"})

    async def on_draft(self, content: dict) -> None:
        seq = content.get("seq")
        if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
            raise ClientError('"seq" must be an integer.')
        if not self.round.is_open():
            raise ClientError("This round is closed: it no longer accepts questions.")
        try:
            draft = clean_question(
                prompt=content.get("prompt"), choices=content.get("choices"), answer=content.get("answer"),
                answer_required=False,
            )
        except ValidationError as error:
            raise ClientError(first_message(error)) from None
        self.latest_seq += 1
        # Run the model in the background so the next draft can replace this one while it waits.
        self.pending = asyncio.ensure_future(self.predict(draft.prompt, draft.choices, draft.answer, self.latest_seq, seq))

    async def predict(self, prompt: str, choices: tuple[str, ...], answer: int | None, local_seq: int, seq: int | None) -> None:
        example = MCExample(prompt=prompt, choices=choices)
        try:
            result = await inference_service.predict_draft(version=self.version, key=id(self), example=example)
        except BatcherOverloaded:
            await self.send_json({"type": "status", "state": "busy", "message": BUSY_MESSAGE, "seq": seq})
            return
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("Draft prediction failed for round %s", self.round.pk)
            if local_seq == self.latest_seq:
                await self.send_json({"type": "status", "state": "unavailable", "message": UNAVAILABLE_MESSAGE, "seq": seq})
            return
        if result is None or local_seq != self.latest_seq:
            return  # a newer draft replaced this one; only the newest is answered
        await self.send_json(
            {
                "type": "prediction",
                "probs": list(result.probs),
                "predicted": result.predicted,
                "model_version": self.version.name,
                "fooled": None if answer is None else result.predicted != answer,
                "seq": seq,
            }
        )


class ScoringProgressConsumer(AsyncJsonWebsocketConsumer):
    """The round's newest scoring run of each kind and training jobs, for its instructors, on
    ``ws/rounds/<round_id>/scoring/``.

    Sends ``{"type": "scoring", "runs": [{id, kind, status, progress, summary, error, display}]}``
    and ``{"type": "training", "jobs": [{id, name, status, error, display}]}`` on connect and
    whenever a run or job changed. The worker writes progress to the database from
    another process, so the consumer polls the database (through a selector, once a second)
    instead of waiting for a group message: that works the same with the in-memory channel
    layer and with Redis. The client may send ``{"type": "ping"}``.
    """

    poll_seconds = 1.0
    round: Round | None = None

    async def connect(self) -> None:
        await self.accept()
        self.poller: asyncio.Task | None = None
        try:
            self.round = await database_sync_to_async(selectors.round_for_manager)(
                user=self.scope["user"], round_id=self.scope["url_route"]["kwargs"]["round_id"]
            )
        except AccessError as error:
            await self.send_json({"type": "error", "message": error.message})
            await self.close(code=4403)
            return
        self.last_runs: list[dict] | None = None
        self.last_jobs: list[dict] | None = None
        self.poller = asyncio.ensure_future(self.poll())

    async def disconnect(self, code: int) -> None:
        if getattr(self, "poller", None) is not None:
            self.poller.cancel()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs) -> None:
        if self.round is None:
            return
        try:
            content = json.loads(text_data or "")
        except (json.JSONDecodeError, TypeError):
            content = None
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})
            return
        await self.send_json({"type": "error", "message": 'This socket only reports progress; send {"type": "ping"} at most.'})

    async def poll(self) -> None:
        while True:
            try:
                runs, jobs = await database_sync_to_async(self.snapshot)()
            except Exception:
                logger.exception("Could not read the scoring runs of round %s", self.round.pk)
            else:
                if runs != self.last_runs:
                    self.last_runs = runs
                    await self.send_json({"type": "scoring", "runs": runs})
                if jobs != self.last_jobs:
                    self.last_jobs = jobs
                    await self.send_json({"type": "training", "jobs": jobs})
            await asyncio.sleep(self.poll_seconds)

    def snapshot(self) -> tuple[list[dict], list[dict]]:
        runs = [scoring_run_payload(run) for run in selectors.scoring_runs_latest(round_=self.round)]
        jobs = [training_job_payload(job) for job in selectors.training_jobs_latest(round_=self.round)]
        return runs, jobs
