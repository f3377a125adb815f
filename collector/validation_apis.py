"""JSON API of the quality loop: one ``APIView`` per operation, as in ``apis.py``.

GET  /api/validation/next/?round_id=      the next blind question for the signed-in validator
POST /api/validation/submit/              {token, choice, flags, categories, comment}
GET  /api/review/?round_id=&status=       the owner's review queue (paginated)
POST /api/questions/<id>/review/          {action: accept|reject|edit, reason, prompt, choices, ...}
POST /api/questions/<id>/appeal/          {message}
POST /api/appeals/<id>/decide/            {uphold: bool, response}
GET  /api/rounds/<id>/quality/            the round's quality report
POST /api/rounds/<id>/quality/settings/   {validations_required, peer_validation, coach_*, ...}
"""
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from collector import selectors, validation_selectors, validation_services
from collector.models import PeerValidation, Question
from core.apis import MAX_ID, ApiErrorsMixin


class ValidationNextApi(ApiErrorsMixin, APIView):
    """The next question to validate, shuffled for this validator, without key or model answer."""

    class FilterSerializer(serializers.Serializer):
        round_id = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)

    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        round_ = None
        if "round_id" in filters.validated_data:
            round_ = selectors.round_get(round_id=filters.validated_data["round_id"])
        question = validation_selectors.validation_next(user=request.user, round_=round_)
        if question is None:
            return Response({"question": None, "message": "Nothing is waiting for your validation."})
        blind = validation_selectors.blind_question(question=question, validator=request.user)
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
        validation = validation_services.validation_submit(
            validator=request.user, token=data["token"], position=data["choice"], flags=data["flags"],
            categories=data["categories"], comment=data["comment"],
        )
        return Response(self.OutputSerializer(validation).data, status=status.HTTP_201_CREATED)


class ReviewQuestionSerializer(serializers.Serializer):
    """A question with the evidence a reviewer needs (validators' answers, duplicates, appeal)."""

    def to_representation(self, question: Question) -> dict:
        appeal = validation_selectors.appeal_of(question)
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

    class Pagination(PageNumberPagination):
        page_size = 20
        page_size_query_param = "page_size"
        max_page_size = 100

    class FilterSerializer(serializers.Serializer):
        round_id = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        status = serializers.ChoiceField(choices=Question.Status.choices, required=False)

    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        round_ = None
        if "round_id" in filters.validated_data:
            round_ = selectors.round_for_manager(user=request.user, round_id=filters.validated_data["round_id"])
        questions = validation_selectors.review_queue(
            user=request.user, round_=round_, status=filters.validated_data.get("status")
        )
        paginator = self.Pagination()
        page = paginator.paginate_queryset(questions, request, view=self)
        return paginator.get_paginated_response(ReviewQuestionSerializer(page, many=True).data)


class QuestionReviewApi(ApiErrorsMixin, APIView):
    """Accept, reject (reason required) or edit-and-accept a question."""

    class InputSerializer(serializers.Serializer):
        action = serializers.ChoiceField(choices=validation_services.REVIEW_ACTIONS)
        reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=5000)
        prompt = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
        choices = serializers.ListField(child=serializers.CharField(allow_blank=True, trim_whitespace=False),
                                        required=False)
        correct_index = serializers.IntegerField(required=False, min_value=-MAX_ID, max_value=MAX_ID)
        categories = serializers.ListField(child=serializers.CharField(), required=False)

    def post(self, request: Request, question_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        question = validation_services.question_review_decide(
            reviewer=request.user, question_id=question_id, **serializer.validated_data
        )
        question = validation_selectors.question_for_reviewer(user=request.user, question_id=question.pk)
        return Response(ReviewQuestionSerializer(question).data)


class AppealSubmitApi(ApiErrorsMixin, APIView):
    class InputSerializer(serializers.Serializer):
        message = serializers.CharField(allow_blank=True, max_length=5000)

    def post(self, request: Request, question_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        appeal = validation_services.appeal_submit(author=request.user, question_id=question_id,
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
        appeal = validation_services.appeal_decide(reviewer=request.user, appeal_id=appeal_id,
                                                   **serializer.validated_data)
        return Response({"id": appeal.pk, "question_id": appeal.question_id, "status": appeal.status,
                         "question_status": appeal.question.status})


class RoundQualityApi(ApiErrorsMixin, APIView):
    """The round's quality report: status counts, human accuracy, kappas, validators, coach."""

    def get(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        return Response(validation_selectors.round_quality_report(round_=round_))



class RoundQualitySettingsUpdateApi(ApiErrorsMixin, APIView):
    """POST the round's validation and coach settings to change (any subset; the others stay).
    Lowering ``validations_required`` accepts pending questions that now have enough agreement."""

    success_status = 200
    FIELDS = validation_services.QUALITY_SETTING_FIELDS

    class InputSerializer(serializers.Serializer):
        validations_required = serializers.IntegerField(required=False, min_value=1, max_value=10)
        peer_validation = serializers.ChoiceField(choices=PeerValidation.choices, required=False)
        credit_requires_acceptance = serializers.BooleanField(required=False)
        coach_answer_only = serializers.BooleanField(required=False)
        coach_words = serializers.BooleanField(required=False)
        coach_length = serializers.BooleanField(required=False)
        coach_duplicates = serializers.BooleanField(required=False)

    class OutputSerializer(InputSerializer):
        pass

    def post(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        current = {name: getattr(round_, name) for name in self.FIELDS}
        round_ = validation_services.round_quality_settings_update(round_=round_,
                                                                   **{**current, **serializer.validated_data})
        return Response({name: getattr(round_, name) for name in self.FIELDS})
