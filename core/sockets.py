"""The websocket base classes every app's consumers are built on.

``JsonSocketConsumer``: a message must be a JSON object of at most ``max_message_bytes``
characters (read by the one bounded JSON reader: depth and numbers limited) with a ``type`` naming one of the consumer's ``handlers``; anything else is answered
with ``{"type": "error", "message": ...}`` and the socket stays open. ``{"type": "ping"}`` is
answered with a pong. A connection the user may not open gets an error, then close code 4403.

``DraftSocketConsumer`` answers drafts (authoring, span annotation) with a model: ``seq``
checked and echoed, a per-user draft rate limit, only the newest draft answered (latest wins),
and ``status`` messages while the model is ``loading``, ``busy`` or ``unavailable``.

``ProgressSocketConsumer`` reports background jobs' progress: it sends their state on connect,
then waits for the pushes ``core.jobs`` sends through the channel layer (``group_send``) on each
change of a job and sends each part of its snapshot that changed; it never polls the database.

Messages for people are translated (Django's gettext) into ``message_language``, which a
consumer sets once it knows whom it talks to (the annotation socket: the worker page's
language); every message a client receives and every ``ClientError`` is worded in it.
"""
import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.routing import URLRouter
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.urls import Resolver404
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.exceptions import AccessError
from core.i18n import digits
from core.metrics import draft_answered, draft_shed
from core.ratelimit import draft_limiter
from core.validators import json_error_reason
from mlcore.data.bounded_json import JsonLimitError, load_json
from mlcore.models.serving import BatcherOverloaded, InferenceFailed

logger = logging.getLogger(__name__)
REFUSED_CLOSE_CODE = 4403


class SocketRouter(URLRouter):
    """Channels' ``URLRouter`` that refuses a websocket to a path no route matches: the handshake
    is closed (the client sees 403) and one line is logged, where ``URLRouter`` raises
    ``ValueError``, which the server answers with a 500 and a traceback."""

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "websocket" and "path_remaining" not in scope and not self.routes_path(scope):
            logger.warning("Websocket refused: no route for %r", scope.get("path"))
            await receive()  # websocket.connect
            await send({"type": "websocket.close"})  # before accepting: the handshake is refused
            return
        await super().__call__(scope, receive, send)

    def routes_path(self, scope) -> bool:
        """Whether one of the routes matches the scope's path (as ``URLRouter`` matches it)."""
        path, root = scope.get("path") or "", scope.get("root_path", "")
        if root and not path.startswith(root):
            return False
        path = path[len(root):].lstrip("/")
        for route in self.routes:
            try:
                if route.pattern.match(path):
                    return True
            except Resolver404:
                pass
        return False


class ClientError(Exception):
    """A mistake in what the client sent; its message goes back as an error message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message  # may be a lazy translation, worded when it is sent


class JsonSocketConsumer(AsyncJsonWebsocketConsumer):
    """Strict JSON parsing and dispatch on ``type`` to the methods named in ``handlers``.

    Subclasses name their message kinds in ``handlers`` (``ping`` is always answered) and return
    False from ``accepting()`` while the connection was refused, so late messages are ignored.
    """

    max_message_bytes = 16_000
    handlers: dict[str, str] = {}
    # %(expected)s: the socket's own message types and "ping", quoted.
    unknown_type_message = gettext_lazy("Unknown message type %(type)s; expected %(expected)s.")
    message_language: str | None = None  # None: the site's language (settings.LANGUAGE_CODE)

    def accepting(self) -> bool:
        return True

    def speaking(self) -> translation.override:
        """Word messages in ``message_language`` (over awaits too: the language is per task)."""
        return translation.override(self.message_language or settings.LANGUAGE_CODE)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return json.dumps(content, cls=DjangoJSONEncoder)  # lazy translations become text

    async def send_json(self, content: Any, close: bool = False) -> None:
        with self.speaking():
            text = await self.encode_json(content)
        await self.send(text_data=text, close=close)

    async def refuse(self, error: AccessError) -> None:
        """Tell the client why, then close with 4403 (the page shows the message, no retry)."""
        await self.send_json({"type": "error", "message": error.message})
        await self.close(code=REFUSED_CLOSE_CODE)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs) -> None:
        # Overridden so that a message that is not JSON gets an error instead of closing the socket.
        if not self.accepting():
            return
        with self.speaking():
            try:
                if text_data is None:
                    raise ClientError(_("Send JSON text messages, not binary data."))
                if len(text_data) > self.max_message_bytes:
                    raise ClientError(_("Message too large (at most %(count)s characters).")
                                      % {"count": digits(self.max_message_bytes)})
                try:
                    content = load_json(text_data)
                except JsonLimitError as error:  # nested too deep, a 5,000-digit number, NaN
                    raise ClientError(_("Message is not valid JSON: %(reason)s.")
                                      % {"reason": json_error_reason(error)}) from None
                except json.JSONDecodeError:
                    raise ClientError(_("Message is not valid JSON.")) from None
                await self.receive_json(content)
            except ClientError as error:
                await self.send_json({"type": "error", "message": error.message})

    async def receive_json(self, content: Any, **kwargs) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong"})
            return
        if not isinstance(kind, str) or kind not in self.handlers:
            if not isinstance(content, dict):
                raise ClientError(_('Send a JSON object with a "type" field.'))
            expected = _(" or ").join(f'"{name}"' for name in [*self.handlers, "ping"])
            raise ClientError(str(self.unknown_type_message) % {"type": repr(kind), "expected": expected})
        await getattr(self, self.handlers[kind])(content)


class DraftSocketConsumer(JsonSocketConsumer):
    """Base of a consumer that answers drafts with a model through an inference service.

    Subclasses implement ``on_draft`` (validate, then ``start_prediction``), set the status
    messages and ``rate_key`` (whose budget a user's drafts draw on), and may keep a running
    ``self.pending`` task, which is cancelled on disconnect.
    """

    handlers = {"draft": "on_draft"}
    rate_key = "drafts"
    LOADING_MESSAGE = gettext_lazy("The model is loading; your draft is answered once it is ready.")
    BUSY_MESSAGE = gettext_lazy("The model is busy right now; it will answer your next change.")
    UNAVAILABLE_MESSAGE = gettext_lazy("The model is unavailable right now.")
    RATE_LIMITED_MESSAGE = gettext_lazy("You are sending drafts faster than the model can follow; this one was "
                                        "skipped.")
    pending: asyncio.Task | None = None
    latest_seq = 0

    async def disconnect(self, code: int) -> None:
        if self.pending is not None:
            self.pending.cancel()

    async def on_draft(self, content: dict) -> None:
        raise NotImplementedError

    @staticmethod
    def draft_seq(content: dict) -> int | None:
        """The client's ``seq`` (echoed in the answer so it can drop stale ones), or None."""
        seq = content.get("seq")
        if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
            raise ClientError(_('"seq" must be an integer.'))
        return seq

    async def send_status(self, state: str, message: Any, seq: int | None) -> None:
        await self.send_json({"type": "status", "state": state, "message": message, "seq": seq})

    async def rate_limited(self, seq: int | None) -> bool:
        """Count the draft against the user's budget; True (and the client told) when it is spent."""
        allowed = await draft_limiter.aallow(f"{self.rate_key}:{self.scope['user'].pk}",
                                             rate=settings.STUMPER_DRAFT_RATE, burst=settings.STUMPER_DRAFT_BURST)
        if not allowed:
            draft_shed("rate_limited")
            await self.send_status("rate_limited", self.RATE_LIMITED_MESSAGE, seq)
        return not allowed

    def start_prediction(self, predict: Callable[[int], Awaitable[None]]) -> None:
        """Run ``predict(local_seq)`` in the background, so the next draft can replace this one
        while it waits; only the newest draft (``local_seq == self.latest_seq``) is answered."""
        self.latest_seq += 1
        self.pending = asyncio.ensure_future(predict(self.latest_seq))

    def is_latest(self, local_seq: int) -> bool:
        return local_seq == self.latest_seq

    async def unavailable(self, local_seq: int, seq: int | None) -> None:
        if self.is_latest(local_seq):
            await self.send_status("unavailable", self.UNAVAILABLE_MESSAGE, seq)

    async def model_loaded(self, service: Any, version: Any, local_seq: int, seq: int | None) -> bool:
        """Wait for a model still loading in this process (the client hears "loading"); False: give up."""
        if service.model_ready(version):
            return True
        if not service.load_failed(version):  # a model that failed is tried again, silently
            await self.send_status("loading", self.LOADING_MESSAGE, seq)
        try:
            await service.wait_until_loaded(version)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            logger.warning("Model %s could not be loaded for %s: %s", version.name, self.describe(), error)
            await self.unavailable(local_seq, seq)
            return False
        return self.is_latest(local_seq)  # a newer draft, waiting too, is answered instead

    async def model_answer(self, service: Any, version: Any, example: Any, local_seq: int, seq: int | None) -> Any:
        """The model's answer to the newest draft, or None (after telling the client why, if it
        is still the newest: ``busy`` or ``unavailable``; nothing when a newer draft replaced it)."""
        if not await self.model_loaded(service, version, local_seq, seq):
            return None
        asked = time.monotonic()
        try:
            result = await service.predict_draft(version=version, key=id(self), example=example)
        except BatcherOverloaded:
            draft_shed("busy")
            await self.send_status("busy", self.BUSY_MESSAGE, seq)
            return None
        except asyncio.CancelledError:
            raise
        except (TimeoutError, InferenceFailed) as error:
            # Expected under load or while no inference worker answers: one line, no traceback.
            logger.warning("No prediction for a draft in %s (model %s): %s", self.describe(), version.name,
                           str(error) or f"no answer within {settings.STUMPER_INFERENCE_TIMEOUT:.0f} s")
            draft_shed("failed")
            await self.unavailable(local_seq, seq)
            return None
        except Exception:
            logger.exception("Draft prediction failed for %s", self.describe())
            draft_shed("failed")
            await self.unavailable(local_seq, seq)
            return None
        if result is None or not self.is_latest(local_seq):
            draft_shed("superseded")
            return None  # a newer draft replaced this one; only the newest is answered
        draft_answered(version.name, time.monotonic() - asked)
        return result

    def describe(self) -> str:
        """What this connection is about, for log lines."""
        return self.scope.get("path", "a draft socket")


class ProgressSocketConsumer(JsonSocketConsumer):
    """Sends ``{"type": <part>, **content}`` once on connect, then again whenever a job it follows
    is pushed (``core.jobs.job_push``) and the part changed: no polling.

    Subclasses implement ``load`` (check access and remember what to show; raise ``AccessError``
    to refuse), ``push_groups`` (the groups to join: ``core.jobs.job_group`` of each job shown, or
    ``job_scope_group`` of what they belong to), ``snapshot`` (sync, run in the ORM's thread;
    returns ``{part: content}``) and may implement ``finished`` (no job shown runs any more).

    A worker that dies pushes nothing, so while a job runs the socket reads it again after
    ``STUMPER_JOB_STALL_SECONDS`` of silence: the page then hears that the job is stalled. A
    separate worker's pushes reach this process through Redis or, on the in-memory layer, through
    the loopback relay (``core.job_relay``).
    """

    handlers: dict[str, str] = {}
    unknown_type_message = gettext_lazy('This socket only reports progress; send {"type": "ping"} at most.')
    loaded = False
    joined: tuple[str, ...] = ()
    silence: asyncio.Task | None = None

    async def connect(self) -> None:
        await self.accept()
        try:
            await database_sync_to_async(self.load)()
        except AccessError as error:
            await self.refuse(error)
            return
        self.loaded = True
        self.last: dict[str, Any] = {}
        if self.channel_layer is not None:
            # Joined before the first read, so an update between the two is not lost.
            self.joined = tuple(self.push_groups())
            for group in self.joined:
                await self.channel_layer.group_add(group, self.channel_name)
        await self.send_changes()

    def accepting(self) -> bool:
        return self.loaded

    async def disconnect(self, code: int) -> None:
        if self.silence is not None:
            self.silence.cancel()
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    def load(self) -> None:
        raise NotImplementedError

    def push_groups(self) -> list[str]:
        raise NotImplementedError

    def snapshot(self) -> dict[str, dict]:
        raise NotImplementedError

    def finished(self, snapshot: dict[str, dict]) -> bool:
        return False

    async def job_update(self, event: dict) -> None:
        """A job this socket follows changed (``core.jobs.job_push``): send what changed."""
        await self.send_changes()

    async def send_changes(self) -> None:
        try:
            parts = await database_sync_to_async(self.snapshot)()
        except Exception:
            logger.exception("Could not read the progress for %s", self.scope.get("path", "a progress socket"))
            return
        for part, content in parts.items():
            if self.last.get(part) != content:
                self.last[part] = content
                await self.send_json({"type": part, **content})
        if self.silence is not None:
            self.silence.cancel()
            self.silence = None
        if not self.finished(parts):
            self.silence = asyncio.ensure_future(self.after_silence())

    async def after_silence(self) -> None:
        """Read the jobs again once no push came for the stall period (their worker may be dead)."""
        await asyncio.sleep(settings.STUMPER_JOB_STALL_SECONDS + 1)
        self.silence = None
        await self.send_changes()
