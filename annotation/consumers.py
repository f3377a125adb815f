"""Websocket consumer: the project's QA model answers while the worker writes (model in the loop).

Route ``ws/annotation/sessions/<session_id>/qa/``; only the session's worker may connect.

The client sends ``{"type": "draft", "question": str, "selection": {"start16", "end16"} | null,
"is_impossible": bool, "seq": int?}`` and receives, for its newest draft,
``{"type": "prediction", "text": str, "answer_start": int | null, "span16": {"start16", "end16"} | null,
"f1": float | null, "fooled": bool | null, "model_version": str, "seq": int | null}``
(``f1``/``fooled`` compare the prediction with the worker's selection, or with "no answer"
for an unanswerable question, and are null while the worker has marked nothing).

On connect the server sends ``{"type": "status", "state": "ready" | "no_model", "message": str}``.
Bad messages get ``{"type": "error", "message": str}`` and the socket stays open; model trouble
gets ``{"type": "status", "state": "loading" | "busy" | "unavailable", ...}`` (``loading``: this
process is still loading the model; the draft is answered once it is ready); more drafts than
``STUMPER_DRAFT_RATE`` per second (bursts of ``STUMPER_DRAFT_BURST``) get ``"rate_limited"``. The worker's questions go
through the REST API and are stored whatever happens here: this socket only advises.
"""
import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings
from django.core.exceptions import ValidationError

from annotation import selectors
from annotation.exceptions import AccessError
from annotation.inference import qa_inference_service
from annotation.models import AnnotationSession
from annotation.services.predictions import fool_verdict
from annotation.validation import clean_question_text, clean_span, first_message
from collector.models import ModelVersion
from collector.ratelimit import draft_limiter
from collector.websocket import ClientError, DraftSocketConsumer
from mlcore.data.spans import index_to_utf16
from mlcore.models.qa import QAExample, QAPrediction
from mlcore.models.serving import BatcherOverloaded, InferenceFailed

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 8_000
NO_MODEL_MESSAGE = "No model is set up for this project: write your questions as usual."
LOADING_MESSAGE = "The model is loading (it takes a moment after the server starts); it answers once it is ready."
READY_MESSAGE = "The model answers your question as you write it."
BUSY_MESSAGE = "The model is busy; it will answer your next change. Your questions are saved either way."
RATE_LIMITED_MESSAGE = ("You are sending drafts faster than the model can follow; this one was skipped. "
                        "Keep writing.")
UNAVAILABLE_MESSAGE = ("The model is unavailable right now. Keep writing: your questions are saved, "
                       "and the model's answer is added once it is back.")


class QAAssistConsumer(DraftSocketConsumer):
    """One worker's connection while writing questions on one paragraph."""

    max_message_bytes = MAX_MESSAGE_BYTES

    session: AnnotationSession | None = None
    version: ModelVersion | None = None

    async def connect(self) -> None:
        await self.accept()
        self.latest_seq = 0
        self.pending: asyncio.Task | None = None
        try:
            self.session = await database_sync_to_async(self._load)()
        except AccessError as error:
            await self.send_json({"type": "error", "message": error.message})
            await self.close(code=4403)
            return
        if self.version is None:
            await self.send_json({"type": "status", "state": "no_model", "message": NO_MODEL_MESSAGE})
            return
        qa_inference_service.warm_up(self.version)
        await self.send_json({"type": "status", "state": "ready", "message": READY_MESSAGE,
                              "model_version": self.version.name})

    def _load(self) -> AnnotationSession:
        user = self.scope["user"]
        if not user.is_authenticated:
            raise AccessError("Sign in to annotate.")
        session = selectors.session_for_worker(user=user, session_id=self.scope["url_route"]["kwargs"]["session_id"])
        if session.kind != AnnotationSession.Kind.AUTHORING:
            raise AccessError("The model only assists while you write questions.")
        self.context = session.paragraph.context
        project = session.paragraph.article.project
        self.language, self.threshold = project.language, project.fool_f1_threshold
        self.version = project.qa_model
        return session

    def accepting(self) -> bool:
        return self.session is not None

    async def on_draft(self, content: dict) -> None:
        seq = content.get("seq")
        if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
            raise ClientError('"seq" must be an integer.')
        if self.version is None:
            await self.send_json({"type": "status", "state": "no_model", "message": NO_MODEL_MESSAGE, "seq": seq})
            return
        # The same per-user budget as the authoring socket, kept apart from it.
        if not await draft_limiter.aallow(f"annotation:{self.scope['user'].pk}", rate=settings.STUMPER_DRAFT_RATE,
                                          burst=settings.STUMPER_DRAFT_BURST):
            await self.send_json({"type": "status", "state": "rate_limited", "message": RATE_LIMITED_MESSAGE, "seq": seq})
            return
        is_impossible = content.get("is_impossible", False)
        if not isinstance(is_impossible, bool):
            raise ClientError('"is_impossible" must be true or false.')
        try:
            question = clean_question_text(content.get("question"))
            selection = content.get("selection")
            gold = None
            if is_impossible:
                gold = ""
            elif selection is not None:
                gold = clean_span(context=self.context, selection=selection).text
        except ValidationError as error:
            raise ClientError(first_message(error)) from None
        self.latest_seq += 1
        # Predict in the background so the next draft can replace this one while it waits.
        self.pending = asyncio.ensure_future(self.predict(question, gold, self.latest_seq, seq))

    async def predict(self, question: str, gold: str | None, local_seq: int, seq: int | None) -> None:
        if not qa_inference_service.model_ready(self.version):
            if not qa_inference_service.load_failed(self.version):  # a failed model is tried again, silently
                await self.send_json({"type": "status", "state": "loading", "message": LOADING_MESSAGE, "seq": seq})
            try:
                await qa_inference_service.wait_until_loaded(self.version)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                logger.warning("QA model %s could not be loaded for session %s: %s", self.version.name,
                               self.session.pk, error)
                if local_seq == self.latest_seq:
                    await self.send_json({"type": "status", "state": "unavailable", "message": UNAVAILABLE_MESSAGE,
                                          "seq": seq})
                return
            if local_seq != self.latest_seq:
                return  # a newer draft, waiting too, is answered instead
        try:
            result = await qa_inference_service.predict_draft(
                version=self.version, key=id(self), example=QAExample(question, self.context)
            )
        except BatcherOverloaded:
            await self.send_json({"type": "status", "state": "busy", "message": BUSY_MESSAGE, "seq": seq})
            return
        except asyncio.CancelledError:
            raise
        except (TimeoutError, InferenceFailed) as error:
            # Expected under load or while no inference worker answers: one line, no traceback.
            logger.warning("No QA prediction for a draft in session %s: %s", self.session.pk,
                           str(error) or f"no answer within {settings.STUMPER_INFERENCE_TIMEOUT:.0f} s")
            if local_seq == self.latest_seq:
                await self.send_json({"type": "status", "state": "unavailable", "message": UNAVAILABLE_MESSAGE,
                                      "seq": seq})
            return
        except Exception:
            logger.warning("QA draft prediction failed for session %s", self.session.pk, exc_info=True)
            if local_seq == self.latest_seq:
                await self.send_json({"type": "status", "state": "unavailable", "message": UNAVAILABLE_MESSAGE,
                                      "seq": seq})
            return
        if result is None or local_seq != self.latest_seq:
            return  # a newer draft replaced this one; only the newest is answered
        await self.send_json(self._prediction_message(result, gold, seq))

    def _prediction_message(self, result: QAPrediction, gold: str | None, seq: int | None) -> dict:
        f1 = fooled = None
        if gold is not None:
            f1, fooled = fool_verdict(gold=gold, predicted=result.text, language=self.language,
                                      threshold=self.threshold)
        span16 = None
        if result.start is not None:
            span16 = {"start16": index_to_utf16(self.context, result.start),
                      "end16": index_to_utf16(self.context, result.start + len(result.text))}
        return {"type": "prediction", "text": result.text, "answer_start": result.start, "span16": span16,
                "f1": f1, "fooled": fooled, "model_version": self.version.name, "seq": seq}
