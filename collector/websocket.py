"""The JSON message protocol that the draft sockets (authoring, span annotation) share.

A message must be a JSON object of at most ``max_message_bytes`` characters with a ``type``
naming one of the consumer's ``handlers``; anything else is answered with ``{"type": "error",
"message": ...}`` and the socket stays open. ``{"type": "ping"}`` is answered with a pong.
"""
import json
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class ClientError(Exception):
    """A mistake in what the client sent; its message goes back as an error message."""


class DraftSocketConsumer(AsyncJsonWebsocketConsumer):
    """Base of a consumer that answers drafts: strict JSON parsing, dispatch on ``type``.

    Subclasses set ``max_message_bytes``, implement ``on_draft`` and ``accepting()`` (False
    while the connection was refused, so late messages are ignored), and may keep a running
    ``self.pending`` task, which is cancelled on disconnect.
    """

    max_message_bytes = 16_000
    pending = None

    def accepting(self) -> bool:
        raise NotImplementedError

    async def disconnect(self, code: int) -> None:
        if self.pending is not None:
            self.pending.cancel()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs) -> None:
        # Overridden so that a message that is not JSON gets an error instead of closing the socket.
        if not self.accepting():
            return
        try:
            if text_data is None:
                raise ClientError("Send JSON text messages, not binary data.")
            if len(text_data) > self.max_message_bytes:
                raise ClientError(f"Message too large (at most {self.max_message_bytes} characters).")
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
        raise NotImplementedError
