"""JSON API of the collector: one ``APIView`` per operation (Styleguide-Example ``users/apis.py``).

Services raise Django's ``ValidationError`` and our ``AccessError``; ``ApiErrorsMixin`` turns them
into 400 with field errors and 403 with the service's message, so no input can cause a 500.
"""

from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from collector import selectors, services
from collector.presentation import prediction_payload, question_view
from core.apis import MAX_ID, ApiErrorsMixin


class PredictionSerializer(serializers.Serializer):
    status = serializers.CharField()
    probs = serializers.ListField(child=serializers.FloatField(), allow_null=True)
    predicted = serializers.IntegerField(allow_null=True)
    predicted_text = serializers.CharField(allow_null=True)
    fooled = serializers.BooleanField(allow_null=True)
    model_version = serializers.CharField(allow_null=True)


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
        question = services.question_submit(user=request.user, **serializer.validated_data)
        return Response(self.OutputSerializer(question).data, status=status.HTTP_201_CREATED)


class QuestionListApi(ApiErrorsMixin, APIView):
    """GET the signed-in user's own questions, newest first, optionally of one round."""

    class Pagination(PageNumberPagination):
        page_size = 25
        page_size_query_param = "page_size"
        max_page_size = 100

    class FilterSerializer(serializers.Serializer):
        round_id = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        round_id = serializers.IntegerField()
        round_name = serializers.CharField()
        prompt = serializers.CharField()
        choices = serializers.ListField(child=serializers.CharField())
        correct_index = serializers.IntegerField()
        categories = serializers.ListField(child=serializers.CharField())
        time_spent_seconds = serializers.IntegerField()
        created_at = serializers.DateTimeField()
        credit = serializers.FloatField()
        prediction = PredictionSerializer()

        def to_representation(self, question):
            view = question_view(question)
            return super().to_representation(
                {
                    "id": question.pk,
                    "round_id": question.round_id,
                    "round_name": question.round.name,
                    "prompt": question.prompt,
                    "choices": question.choices,
                    "correct_index": question.correct_index,
                    "categories": question.categories,
                    "time_spent_seconds": question.time_spent_seconds,
                    "created_at": question.created_at,
                    "credit": view.credit,
                    "prediction": prediction_payload(question),
                }
            )

    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        round_ = None
        if "round_id" in filters.validated_data:
            round_ = selectors.round_get(round_id=filters.validated_data["round_id"])
        questions = selectors.questions_of_author(user=request.user, round_=round_)
        paginator = self.Pagination()
        page = paginator.paginate_queryset(questions, request, view=self)
        return paginator.get_paginated_response(self.OutputSerializer(page, many=True).data)


class RoundStatsApi(ApiErrorsMixin, APIView):
    """GET a round's counts (questions, authors, categories, fooling rate) and its latest scoring
    results (the two CV accuracies as named in ``collector/cv_accuracy.py``); course managers only."""

    class OutputSerializer(serializers.Serializer):
        round = serializers.CharField()
        questions = serializers.IntegerField()
        authors = serializers.IntegerField()
        categories = serializers.DictField(child=serializers.IntegerField())
        fooled_live = serializers.IntegerField()
        predicted_live = serializers.IntegerField()
        pending_live = serializers.IntegerField()
        fooling_rate_live = serializers.FloatField(allow_null=True)
        scored_cv = serializers.IntegerField(help_text="Questions with an out-of-fold prediction")
        fooled_cv = serializers.FloatField(help_text="Sum over questions of the share of CV trials fooled")
        cv_accuracy_pooled = serializers.FloatField(
            allow_null=True, help_text="CV accuracy (pooled): correct out-of-fold predictions / (questions x trials)")
        cv_accuracy_mean = serializers.FloatField(
            allow_null=True, help_text="Mean per-fold accuracy (CODAH): unweighted mean over folds, then over trials")
        cv_accuracy_std = serializers.FloatField(allow_null=True, help_text="Sample std of the above over trials")
        cv_smallest_fold = serializers.IntegerField(allow_null=True, help_text="Questions in the smallest fold")
        cv_warning = serializers.CharField(allow_blank=True, help_text="Set when folds are too small to mean much")
        answer_only_accuracy = serializers.FloatField(required=False, allow_null=True)

    def get(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        return Response(self.OutputSerializer(selectors.round_stats(round_=round_)).data)
