"""JSON API of the second pass: a blind answer to one question, then (after the reveal) a flag on
its original answer. A second answer to the same question is 409 (the first is final).
"""
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.apis.authoring import AnswerFields
from annotation.apis.worker_language import WorkerLanguageMixin
from annotation.exceptions import AnswerFinal
from annotation.models import QuestionFlag
from annotation.selectors.authoring import session_for_worker
from annotation.services.second_pass import second_pass_answer_save, second_pass_flag_save
from core.apis import MAX_ID, ApiErrorsMixin


class SecondPassAnswerApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST a blind answer (span or unanswerable) to one question, with an optional flag on the original.

    The first answer is final: another answer to the same question is 409 and changes nothing
    (after the reveal, flag the original through ``SecondPassFlagApi`` instead).
    """

    class InputSerializer(AnswerFields):
        question_id = serializers.IntegerField(min_value=1, max_value=MAX_ID)
        flag = serializers.JSONField(required=False, allow_null=True, default=None,
                                     help_text='{"proposal": "fix_answer" | "mark_unanswerable" | "remove_question", '
                                               '"reason": str}')

    def post(self, request: Request, session_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = session_for_worker(user=request.user, session_id=session_id)
        try:
            answer = second_pass_answer_save(session=session, user=request.user, **serializer.validated_data)
        except AnswerFinal as error:
            return Response({"detail": error.detail, "question_id": serializer.validated_data["question_id"]},
                            status=status.HTTP_409_CONFLICT)
        return Response({"question_id": answer.question_id, "is_impossible": answer.is_impossible,
                         "text": answer.text, "answer_start": answer.answer_start}, status=status.HTTP_201_CREATED)


class SecondPassFlagApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST a flag on the original answer of a question the worker has answered (after the reveal).

    A proposal for the project's owner, never an answer: ``fix_answer`` proposes the span given
    (``answer`` or ``selection``, else the worker's own answer), ``mark_unanswerable`` and
    ``remove_question`` need none. The worker's answer stays as it was.
    """

    class InputSerializer(serializers.Serializer):
        question_id = serializers.IntegerField(min_value=1, max_value=MAX_ID)
        proposal = serializers.ChoiceField(choices=QuestionFlag.Proposal.choices)
        reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)
        answer = serializers.JSONField(required=False, allow_null=True, default=None,
                                       help_text='The proposed span: {"text", "answer_start"} in code points')
        selection = serializers.JSONField(required=False, allow_null=True, default=None,
                                          help_text='The proposed span: {"start16", "end16"} in UTF-16 units')

    def post(self, request: Request, session_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = session_for_worker(user=request.user, session_id=session_id)
        flag = second_pass_flag_save(session=session, user=request.user, **serializer.validated_data)
        return Response({"id": flag.pk, "question_id": flag.question_id, "proposal": flag.proposal,
                         "reason": flag.reason, "proposed_text": flag.proposed_text,
                         "proposed_start": flag.proposed_start, "after_reveal": flag.after_reveal,
                         "status": flag.status}, status=status.HTTP_201_CREATED)
