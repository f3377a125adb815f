"""JSON API of writing questions on a paragraph: one ``APIView`` per operation (token or session auth).

A session's detail and its submission serve both kinds of session (a second-pass one is submitted
once every question has its blind answer: ``annotation.apis.second_pass``). The annotation page
uses these too; they answer in the language of the worker's page (``annotation.apis.worker_language``).
Services raise ``ValidationError`` (400 with field errors) and ``AccessError`` (403 with its message)
through ``core.apis.ApiErrorsMixin``.
"""
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.apis.worker_language import WorkerLanguageMixin
from annotation.models import AnnotationSession
from annotation.presentation.sessions import question_payload, session_payload
from annotation.selectors.authoring import question_for_worker, session_for_worker
from annotation.services.authoring import (
    question_add,
    question_delete,
    question_update,
    session_discard,
    session_draft_save,
    session_submit,
)
from annotation.services.second_pass import second_pass_submit
from core.apis import ApiErrorsMixin


class AnswerFields(serializers.Serializer):
    # Offsets are checked by the service against the paragraph (its messages say what is wrong).
    is_impossible = serializers.BooleanField(required=False, default=False)
    answer = serializers.JSONField(required=False, allow_null=True, default=None,
                                   help_text='{"text", "answer_start"} in code points (SQuAD convention)')
    selection = serializers.JSONField(required=False, allow_null=True, default=None,
                                      help_text='{"start16", "end16"}: a browser selection in UTF-16 units')


class SpanQuestionInputSerializer(AnswerFields):
    """A question and its span: what adding a question and editing a draft both take."""

    question = serializers.CharField(allow_blank=True, trim_whitespace=False)


class SessionDetailApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """GET a session's paragraph, the worker's questions (or the questions to answer) and draft."""

    def get(self, request: Request, session_id: int) -> Response:
        return Response(session_payload(session_for_worker(user=request.user, session_id=session_id)))


class SessionDraftSaveApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST the question being typed so a reload restores it."""

    class InputSerializer(serializers.Serializer):
        draft = serializers.JSONField()

    def post(self, request: Request, session_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = session_for_worker(user=request.user, session_id=session_id)
        session = session_draft_save(session=session, user=request.user, draft=serializer.validated_data["draft"])
        return Response({"draft": session.draft})


class QuestionAddApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST a question with its span (``answer`` or ``selection``) or ``is_impossible``; stored as a draft."""

    InputSerializer = SpanQuestionInputSerializer

    def post(self, request: Request, session_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = session_for_worker(user=request.user, session_id=session_id)
        question = question_add(session=session, user=request.user, **serializer.validated_data)
        return Response(question_payload(question, session.paragraph.context), status=status.HTTP_201_CREATED)


class QuestionUpdateApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST new text and answer for a draft question."""

    InputSerializer = SpanQuestionInputSerializer

    def post(self, request: Request, question_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        question = question_for_worker(user=request.user, question_id=question_id)
        question = question_update(question=question, user=request.user, question_text=data.pop("question"),
                                   **data)
        return Response(question_payload(question, question.paragraph.context))


class QuestionDeleteApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST to delete a draft question."""

    def post(self, request: Request, question_id: int) -> Response:
        question = question_for_worker(user=request.user, question_id=question_id)
        question_delete(question=question, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SessionSubmitApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST to submit the paragraph: its drafts, or ``questions`` (a full list replacing them).

    For a second-pass session every question must have been answered first.
    """

    class InputSerializer(serializers.Serializer):
        questions = serializers.ListField(child=serializers.JSONField(), required=False, allow_null=True,
                                          default=None, max_length=100)

    def post(self, request: Request, session_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = session_for_worker(user=request.user, session_id=session_id)
        if session.kind == AnnotationSession.Kind.SECOND_PASS:
            session = second_pass_submit(session=session, user=request.user)
        else:
            session = session_submit(session=session, user=request.user,
                                     questions=serializer.validated_data["questions"])
        return Response(session_payload(session))


class SessionDiscardApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST to discard the paragraph with a reason (hard to understand, too many foreign words, other)."""

    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField()
        note = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)

    def post(self, request: Request, session_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = session_for_worker(user=request.user, session_id=session_id)
        session = session_discard(session=session, user=request.user, **serializer.validated_data)
        return Response({"id": session.pk, "status": session.status})
