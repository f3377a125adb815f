"""Websocket consumer: the progress of one evaluation run, on ``ws/evaluation/runs/<run_id>/``.

Sends ``{"type": "progress", "run": {id, status, progress, error, display, urls}}`` on connect and
whenever the run changed. The worker writes progress to the database from another process, so
the consumer polls it (through a selector, once a second) instead of waiting for a group message:
that works the same with the in-memory channel layer and with Redis (as the collector's scoring
consumer does). The client may send ``{"type": "ping"}``; anything else gets an error message.
Only people who may see the report may connect (others get an error, then close code 4403).
"""
import asyncio
import json
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from collector.exceptions import AccessError
from evaluation import selectors
from evaluation.models import EvaluationRun
from evaluation.presentation import run_payload

logger = logging.getLogger(__name__)


class ClientError(Exception):
    """A mistake in what the client sent; its message goes back as an error message."""


class EvaluationProgressConsumer(AsyncJsonWebsocketConsumer):
    poll_seconds = 1.0
    run_id: int | None = None

    async def connect(self) -> None:
        await self.accept()
        self.poller: asyncio.Task | None = None
        try:
            run = await database_sync_to_async(selectors.evaluation_run_for_user)(
                user=self.scope["user"], run_id=self.scope["url_route"]["kwargs"]["run_id"]
            )
        except AccessError as error:
            await self.send_json({"type": "error", "message": error.message})
            await self.close(code=4403)
            return
        self.run_id = run.pk
        self.last: dict | None = None
        self.poller = asyncio.ensure_future(self.poll())

    async def disconnect(self, code: int) -> None:
        if getattr(self, "poller", None) is not None:
            self.poller.cancel()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs) -> None:
        # Overridden so that a message that is not JSON gets an error instead of closing the socket.
        if self.run_id is None:
            return
        try:
            try:
                content = json.loads(text_data or "")
            except (json.JSONDecodeError, TypeError):
                raise ClientError("Message is not valid JSON.") from None
            await self.receive_json(content)
        except ClientError as error:
            await self.send_json({"type": "error", "message": str(error)})

    async def receive_json(self, content, **kwargs) -> None:
        if not isinstance(content, dict) or content.get("type") != "ping":
            raise ClientError('This socket only reports progress; send {"type": "ping"} at most.')
        await self.send_json({"type": "pong"})

    async def poll(self) -> None:
        while True:
            try:
                payload = await database_sync_to_async(self.snapshot)()
            except Exception:
                logger.exception("Could not read evaluation run %s", self.run_id)
            else:
                if payload != self.last:
                    self.last = payload
                    await self.send_json({"type": "progress", "run": payload})
                if payload["status"] not in EvaluationRun.ACTIVE:
                    return  # finished or failed: nothing will change any more
            await asyncio.sleep(self.poll_seconds)

    def snapshot(self) -> dict:
        return run_payload(selectors.evaluation_run_get(run_id=self.run_id))
