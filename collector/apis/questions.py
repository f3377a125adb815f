"""JSON API of questions: submit one (scored on the server) and list one's own.

POST /api/questions/submit/        {round_id, prompt, choices, correct_index, categories, ...}
GET  /api/questions/?round_id=     the signed-in user's questions, newest first

Services raise Django's ``ValidationError`` and our ``AccessError``; ``ApiErrorsMixin`` turns them
into 400 with field errors and 403 with the service's message, so no input can cause a 500.
"""
from django.db.models import QuerySet
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from collector.models import Question
from collector.presentation.questions import QuestionView, prediction_payload, question_view
from collector.selectors.questions import questions_of_author
from collector.selectors.rounds import round_get_optional
from collector.services.questions import question_submit
from core.apis import MAX_ID, ApiErrorsMixin, ListApi


class PredictionSerializer(serializers.Serializer):
    status = serializers.CharField()
    probs = serializers.ListField(child=serializers.FloatField(), allow_null=True)
    predicted = serializers.IntegerField(allow_null=True)
    predicted_text = serializers.CharField(allow_null=True)
    fooled = serializers.BooleanField(allow_null=True)
    model_version = serializers.CharField(allow_null=True)


class QuestionSerializer(serializers.Serializer):
    """A question as the question lists show it: what its author wrote (prompt, the four
    completions, the correct one's index, categories), the credit it earns and the live model's
    answer."""

    id = serializers.IntegerField()
    prompt = serializers.CharField()
    choices = serializers.ListField(child=serializers.CharField())
    correct_index = serializers.IntegerField()
    categories = serializers.ListField(child=serializers.CharField())
    created_at = serializers.DateTimeField()
    credit = serializers.FloatField()
    prediction = PredictionSerializer()

    def payload(self, question: Question, view: QuestionView) -> dict:
        """The values of a subclass's own fields (the class docstring describes the lists in the schema)."""
        raise NotImplementedError

    def to_representation(self, question: Question) -> dict:
        view = question_view(question)
        return super().to_representation({
            "id": question.pk, "prompt": question.prompt, "choices": question.choices,
            "correct_index": question.correct_index, "categories": question.categories,
            "created_at": question.created_at, "credit": view.credit, "prediction": prediction_payload(question),
            **self.payload(question, view),
        })


class QuestionSubmitApi(ApiErrorsMixin, APIView):
    """POST a question; the server scores it with the round's live model before answering."""

    class InputSerializer(serializers.Serializer):
        round_id = serializers.IntegerField(min_value=1, max_value=MAX_ID)
        # Blank and odd-length text passes here on purpose: the service's messages are the ones
        # the authoring page shows too ("The prompt is empty.", "Give exactly 4 completions").
        prompt = serializers.CharField(allow_blank=True, trim_whitespace=False)
        choices = serializers.ListField(child=serializers.CharField(allow_blank=True, trim_whitespace=False))
        correct_index = serializers.IntegerField(min_value=-MAX_ID, max_value=MAX_ID)
        categories = serializers.ListField(child=serializers.CharField(), required=False, default=list)
        time_spent_seconds = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_ID)
        client_token = serializers.UUIDField(required=False, allow_null=True, default=None)

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        round_id = serializers.IntegerField()
        prediction = PredictionSerializer()

        def to_representation(self, question):
            return super().to_representation(
                {"id": question.pk, "round_id": question.round_id, "prediction": prediction_payload(question)}
            )

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        question = question_submit(user=request.user, **serializer.validated_data)
        return Response(self.OutputSerializer(question).data, status=status.HTTP_201_CREATED)


class QuestionListApi(ListApi):
    """GET the signed-in user's own questions, newest first, optionally of one round."""

    class FilterSerializer(serializers.Serializer):
        round_id = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)

    class OutputSerializer(QuestionSerializer):
        round_id = serializers.IntegerField()
        round_name = serializers.CharField()
        time_spent_seconds = serializers.IntegerField()

        def payload(self, question: Question, view: QuestionView) -> dict:
            return {"round_id": question.round_id, "round_name": question.round.name,
                    "time_spent_seconds": question.time_spent_seconds}

    def items(self, request: Request) -> QuerySet[Question]:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        round_ = round_get_optional(round_id=filters.validated_data.get("round_id"))
        return questions_of_author(user=request.user, round_=round_)
