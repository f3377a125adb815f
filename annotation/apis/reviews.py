"""JSON API of a project owner's review work: its paragraphs (restoring discarded ones) and the
second pass's flags (accepting or rejecting them), as on the Paragraphs and Flags pages.

GET  /api/annotation/projects/<id>/paragraphs/   ?status=open|done|discarded&split=
POST /api/annotation/paragraphs/<id>/restore/    a discarded paragraph back into the queue
GET  /api/annotation/projects/<id>/flags/        ?status=open (default)|accepted|rejected, or empty for all
POST /api/annotation/flags/<id>/resolve/         {decision: accept|reject, note}; accepting applies the proposal
"""
from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.models import Paragraph, QuestionFlag, Split
from annotation.presentation.sessions import answer_payload
from annotation.selectors.projects import project_for_owner
from annotation.selectors.reviews import flag_for_owner, flags_of_project, paragraph_for_owner, paragraphs_of_project
from annotation.services.reviews import flag_resolve, paragraph_restore
from core.apis import ApiErrorsMixin, ListApi


class ParagraphSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    article = serializers.CharField(source="article.title")
    split = serializers.CharField(source="article.split")
    position = serializers.IntegerField(help_text="0 = the article's introduction")
    status = serializers.ChoiceField(choices=Paragraph.Status.choices)
    questions = serializers.IntegerField(source="n_questions", allow_null=True, default=None,
                                         help_text="Submitted questions (in lists)")
    context = serializers.CharField()


class ParagraphListApi(ListApi):
    """GET the project's paragraphs in import order (PageRank rank, then position)."""

    OutputSerializer = ParagraphSerializer

    class FilterSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=Paragraph.Status.choices, required=False)
        split = serializers.ChoiceField(choices=Split.choices, required=False)

    def items(self, request: Request, project_id: int) -> QuerySet[Paragraph]:
        project = project_for_owner(user=request.user, project_id=project_id)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        return paragraphs_of_project(project=project, status=filters.validated_data.get("status", ""),
                                     split=filters.validated_data.get("split", ""))


class ParagraphRestoreApi(ApiErrorsMixin, APIView):
    """POST to put a discarded paragraph back in the queue (the owner disagreed with the discard)."""

    success_status = 200
    OutputSerializer = ParagraphSerializer

    def post(self, request: Request, paragraph_id: int) -> Response:
        paragraph = paragraph_for_owner(user=request.user, paragraph_id=paragraph_id)
        paragraph = paragraph_restore(paragraph=paragraph, user=request.user)
        return Response(ParagraphSerializer(paragraph).data)


class FlagSerializer(serializers.Serializer):
    """A flag with the question it is about, its answers and paragraph, as the Flags page shows it."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=QuestionFlag.Status.choices)
    proposal = serializers.ChoiceField(choices=QuestionFlag.Proposal.choices)
    reason = serializers.CharField()
    proposed_text = serializers.CharField()
    proposed_start = serializers.IntegerField(allow_null=True)
    after_reveal = serializers.BooleanField(help_text="Raised after the worker saw the original answer; a proposal, "
                                                      "never counted as their answer")
    raised_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    resolved_by = serializers.CharField(allow_null=True)
    resolved_at = serializers.DateTimeField(allow_null=True)
    resolution_note = serializers.CharField()
    question = serializers.DictField(help_text="{id, qid, question, is_impossible, status, answers, paragraph_id, "
                                               "context}")

    def to_representation(self, flag: QuestionFlag):
        question = flag.question
        context = question.paragraph.context
        return super().to_representation({
            **{name: getattr(flag, name) for name in ("id", "status", "proposal", "reason", "proposed_text",
                                                      "proposed_start", "after_reveal", "created_at", "resolved_at",
                                                      "resolution_note")},
            "raised_by": flag.raised_by.username,
            "resolved_by": flag.resolved_by.username if flag.resolved_by else None,
            "question": {
                "id": question.pk, "qid": question.qid, "question": question.question,
                "is_impossible": question.is_impossible, "status": question.status,
                "answers": [answer_payload(a, context) for a in question.answers.all()],
                "paragraph_id": question.paragraph_id, "context": context,
            },
        })


class FlagListApi(ListApi):
    """GET the project's flags from the second pass: open ones unless ``status`` says otherwise
    (an empty ``status`` lists all)."""

    OutputSerializer = FlagSerializer

    class FilterSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=QuestionFlag.Status.choices, required=False, allow_blank=True,
                                         default=QuestionFlag.Status.OPEN)

    def items(self, request: Request, project_id: int) -> QuerySet[QuestionFlag]:
        project = project_for_owner(user=request.user, project_id=project_id)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        return flags_of_project(project=project, status=filters.validated_data["status"] or None)


class FlagResolveApi(ApiErrorsMixin, APIView):
    """POST the owner's decision on an open flag: accepting applies its proposal to the question
    (the worker's span, unanswerable, or removal), rejecting leaves the question as it is."""

    success_status = 200
    OutputSerializer = FlagSerializer

    class InputSerializer(serializers.Serializer):
        decision = serializers.ChoiceField(choices=[("accept", "Accept"), ("reject", "Reject")])
        note = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)

    def post(self, request: Request, flag_id: int) -> Response:
        flag = flag_for_owner(user=request.user, flag_id=flag_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        accept = serializer.validated_data["decision"] == "accept"
        flag = flag_resolve(flag=flag, user=request.user, accept=accept, note=serializer.validated_data["note"])
        return Response(FlagSerializer(flag).data)
