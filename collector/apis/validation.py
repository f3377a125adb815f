"""JSON API of blind validation.

GET  /api/validation/next/?round_id=      the next blind question for the signed-in validator
POST /api/validation/submit/              {token, choice, flags, categories, comment}
"""
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from collector.selectors.rounds import round_get_optional
from collector.selectors.validation import blind_question, validation_next
from collector.services.validation import validation_submit
from core.apis import MAX_ID, ApiErrorsMixin


class ValidationNextApi(ApiErrorsMixin, APIView):
    """The next question to validate, shuffled for this validator, without key or model answer."""

    class FilterSerializer(serializers.Serializer):
        round_id = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)

    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        round_ = round_get_optional(round_id=filters.validated_data.get("round_id"))
        question = validation_next(user=request.user, round_=round_)
        if question is None:
            return Response({"question": None, "message": "Nothing is waiting for your validation."})
        blind = blind_question(question=question, validator=request.user)
        return Response({
            "question": {
                "token": blind.token, "round_id": blind.round.pk, "prompt": blind.prompt,
                "choices": [{"position": c.position, "text": c.text} for c in blind.choices],
                "categories": list(blind.categories), "offered_categories": list(blind.round.categories),
            }
        })


class ValidationSubmitApi(ApiErrorsMixin, APIView):
    """Answer the question of a token: the display position picked, flags, categories."""

    class InputSerializer(serializers.Serializer):
        token = serializers.CharField(max_length=2000)
        # Validated by the service, so the page and the API give the same messages.
        choice = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=-MAX_ID,
                                          max_value=MAX_ID)
        flags = serializers.ListField(child=serializers.CharField(max_length=40), required=False, default=list,
                                      max_length=10)
        categories = serializers.ListField(child=serializers.CharField(max_length=40), required=False,
                                           allow_null=True, default=None, max_length=20)
        comment = serializers.CharField(required=False, allow_blank=True, default="", max_length=5000)

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        question_id = serializers.IntegerField()
        seconds_spent = serializers.IntegerField()

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        validation = validation_submit(
            validator=request.user, token=data["token"], position=data["choice"], flags=data["flags"],
            categories=data["categories"], comment=data["comment"],
        )
        return Response(self.OutputSerializer(validation).data, status=status.HTTP_201_CREATED)
