"""JSON API of the owner's review and of appeals.

GET  /api/review/?round_id=&status=       the owner's review queue (paginated)
POST /api/questions/<id>/review/          {action: accept|reject|edit, reason, prompt, choices, ...}
POST /api/questions/<id>/appeal/          {message}
POST /api/appeals/<id>/decide/            {uphold: bool, response}
"""
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from collector.models import Question
from collector.selectors.reviews import appeal_of, question_for_reviewer, review_queue
from collector.selectors.rounds import round_for_manager
from collector.services.reviews import REVIEW_ACTIONS, appeal_decide, appeal_submit, question_review_decide
from core.apis import MAX_ID, ApiErrorsMixin, ListPagination, paginated


class ReviewQuestionSerializer(serializers.Serializer):
    """A question with the evidence a reviewer needs (validators' answers, duplicates, appeal)."""

    def to_representation(self, question: Question) -> dict:
        appeal = appeal_of(question)
        return {
            "id": question.pk, "round_id": question.round_id, "author": question.author.username,
            "prompt": question.prompt, "choices": list(question.choices), "correct_index": question.correct_index,
            "categories": list(question.categories), "status": question.status,
            "review_reason": question.review_reason, "rejection_reason": question.rejection_reason,
            "validations": [
                {"validator": v.validator.username, "chosen_index": v.chosen_index, "is_correct": v.is_correct,
                 "flags": list(v.flags), "categories": list(v.categories), "comment": v.comment,
                 "seconds_spent": v.seconds_spent}
                for v in question.validations.all()
            ],
            "duplicates": [
                {"question_id": f.similar_to_id, "similarity": f.similarity, "prompt": f.similar_to.prompt}
                for f in question.duplicate_flags.all()
            ],
            "appeal": None if appeal is None else {
                "id": appeal.pk, "message": appeal.message, "status": appeal.status, "response": appeal.response,
            },
        }


class ReviewQueueApi(ApiErrorsMixin, APIView):
    """The course manager's queue: in review and appealed questions (or one status)."""

    class Pagination(ListPagination):
        page_size = 20

    class FilterSerializer(serializers.Serializer):
        round_id = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        status = serializers.ChoiceField(choices=Question.Status.choices, required=False)

    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        round_ = None
        if "round_id" in filters.validated_data:
            round_ = round_for_manager(user=request.user, round_id=filters.validated_data["round_id"])
        questions = review_queue(
            user=request.user, round_=round_, status=filters.validated_data.get("status")
        )
        return paginated(self, request, questions, lambda page: ReviewQuestionSerializer(page, many=True).data)


class QuestionReviewApi(ApiErrorsMixin, APIView):
    """Accept, reject (reason required) or edit-and-accept a question."""

    class InputSerializer(serializers.Serializer):
        action = serializers.ChoiceField(choices=REVIEW_ACTIONS)
        reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=5000)
        prompt = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
        choices = serializers.ListField(child=serializers.CharField(allow_blank=True, trim_whitespace=False),
                                        required=False)
        correct_index = serializers.IntegerField(required=False, min_value=-MAX_ID, max_value=MAX_ID)
        categories = serializers.ListField(child=serializers.CharField(), required=False)

    def post(self, request: Request, question_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        question = question_review_decide(
            reviewer=request.user, question_id=question_id, **serializer.validated_data
        )
        question = question_for_reviewer(user=request.user, question_id=question.pk)
        return Response(ReviewQuestionSerializer(question).data)


class AppealSubmitApi(ApiErrorsMixin, APIView):
    class InputSerializer(serializers.Serializer):
        message = serializers.CharField(allow_blank=True, max_length=5000)

    def post(self, request: Request, question_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        appeal = appeal_submit(author=request.user, question_id=question_id,
                                                   **serializer.validated_data)
        return Response({"id": appeal.pk, "question_id": appeal.question_id, "status": appeal.status},
                        status=status.HTTP_201_CREATED)


class AppealDecideApi(ApiErrorsMixin, APIView):
    class InputSerializer(serializers.Serializer):
        uphold = serializers.BooleanField()
        response = serializers.CharField(required=False, allow_blank=True, default="", max_length=5000)

    def post(self, request: Request, appeal_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        appeal = appeal_decide(reviewer=request.user, appeal_id=appeal_id,
                                                   **serializer.validated_data)
        return Response({"id": appeal.pk, "question_id": appeal.question_id, "status": appeal.status,
                         "question_status": appeal.question.status})
