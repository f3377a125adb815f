"""Websocket consumers: the project's QA model answers while the worker writes (model in the loop),
and the project page follows its QA training job (``QATrainingProgressConsumer``, at the end).

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

Every message is in the language of the worker's page (``annotation.i18n.worker_language``: their
choice of language, else the project's), Persian or English.
"""
import logging

from channels.db import database_sync_to_async
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from annotation.i18n import worker_language
from annotation.inputs import clean_question_text, clean_span, first_message
from annotation.models import AnnotationSession, QATrainingJob
from annotation.selectors.authoring import session_for_worker
from annotation.selectors.projects import project_languages
from annotation.selectors.qa_models import qa_training_job_for_owner, qa_training_job_payload
from annotation.services.predictions import fool_verdict
from core.exceptions import AccessError
from core.jobs import job_group
from core.sockets import ClientError, DraftSocketConsumer, ProgressSocketConsumer
from mlcore.data.spans import index_to_utf16
from mlcore.models.qa import QAExample, QAPrediction
from modelhub.inference import qa_inference_service
from modelhub.models import ModelVersion

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 8_000
NO_MODEL_MESSAGE = gettext_lazy("No model is set up for this project: write your questions as usual.")
LOADING_MESSAGE = gettext_lazy("The model is loading (it takes a moment after the server starts); it answers once "
                               "it is ready.")
READY_MESSAGE = gettext_lazy("The model answers your question as you write it.")
BUSY_MESSAGE = gettext_lazy("The model is busy; it will answer your next change. Your questions are saved either "
                            "way.")
RATE_LIMITED_MESSAGE = gettext_lazy("You are sending drafts faster than the model can follow; this one was skipped. "
                                    "Keep writing.")
UNAVAILABLE_MESSAGE = gettext_lazy("The model is unavailable right now. Keep writing: your questions are saved, "
                                   "and the model's answer is added once it is back.")


class QAAssistConsumer(DraftSocketConsumer):
    """One worker's connection while writing questions on one paragraph."""

    max_message_bytes = MAX_MESSAGE_BYTES
    # The same per-user budget as the authoring socket, kept apart from it.
    rate_key = "annotation"
    LOADING_MESSAGE, BUSY_MESSAGE = LOADING_MESSAGE, BUSY_MESSAGE
    UNAVAILABLE_MESSAGE, RATE_LIMITED_MESSAGE = UNAVAILABLE_MESSAGE, RATE_LIMITED_MESSAGE

    session: AnnotationSession | None = None
    version: ModelVersion | None = None

    async def connect(self) -> None:
        await self.accept()
        try:
            self.session = await database_sync_to_async(self._load)()
        except AccessError as error:
            await self.refuse(error)
            return
        if self.version is None:
            await self.send_json({"type": "status", "state": "no_model", "message": NO_MODEL_MESSAGE})
            return
        qa_inference_service.warm_up(self.version)
        await self.send_json({"type": "status", "state": "ready", "message": READY_MESSAGE,
                              "model_version": self.version.name})

    def _load(self) -> AnnotationSession:
        session_id = self.scope["url_route"]["kwargs"]["session_id"]
        # Decided first, so that even a refusal is worded in the language of the page that opened the socket.
        self.message_language = worker_language(self.scope.get("cookies") or {},
                                                project_languages(session_id=session_id))
        with self.speaking():
            return self._session(session_id)

    def _session(self, session_id: int) -> AnnotationSession:
        user = self.scope["user"]
        if not user.is_authenticated:
            raise AccessError(_("Sign in to annotate."))
        session = session_for_worker(user=user, session_id=session_id)
        if session.kind != AnnotationSession.Kind.AUTHORING:
            raise AccessError(_("The model only assists while you write questions."))
        self.context = session.paragraph.context
        project = session.paragraph.article.project
        self.language, self.threshold = project.language, project.fool_f1_threshold
        self.version = project.qa_model
        return session

    def accepting(self) -> bool:
        return self.session is not None

    def describe(self) -> str:
        return f"session {self.session.pk}"

    async def on_draft(self, content: dict) -> None:
        seq = self.draft_seq(content)
        if self.version is None:
            await self.send_status("no_model", NO_MODEL_MESSAGE, seq)
            return
        if await self.rate_limited(seq):
            return
        is_impossible = content.get("is_impossible", False)
        if not isinstance(is_impossible, bool):
            raise ClientError(_('"is_impossible" must be true or false.'))
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
        self.start_prediction(lambda local_seq: self.predict(question, gold, local_seq, seq))

    async def predict(self, question: str, gold: str | None, local_seq: int, seq: int | None) -> None:
        result = await self.model_answer(qa_inference_service, self.version, QAExample(question, self.context),
                                         local_seq, seq)
        if result is not None:
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


class QATrainingProgressConsumer(ProgressSocketConsumer):
    """A project's QA training job, for the project's owner, on
    ``ws/annotation/projects/<project_id>/training/<job_id>/``: ``{"type": "progress", "run": job}``
    (``qa_training_job_payload``) on connect and on each change the worker pushes to the job's group."""

    job_id: int | None = None

    def load(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.job_id = qa_training_job_for_owner(user=self.scope["user"], project_id=kwargs["project_id"],
                                                job_id=kwargs["job_id"]).pk

    def push_groups(self) -> list[str]:
        return [job_group(QATrainingJob, self.job_id)]

    def snapshot(self) -> dict[str, dict]:
        job = QATrainingJob.objects.select_related("model_version").get(pk=self.job_id)
        return {"progress": {"run": qa_training_job_payload(job)}}

    def finished(self, snapshot: dict[str, dict]) -> bool:
        return snapshot["progress"]["run"]["status"] not in QATrainingJob.ACTIVE
