"""JSON API of the artifact coach, for a round's instructors.

POST /api/rounds/<id>/answer-only-model/train/    queue the coach's answer-only model -> 202 with its training job's id
(followed at /api/training/jobs/<job_id>/)
"""
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from collector.selectors.rounds import round_for_manager
from collector.services.coach import round_answer_only_model_schedule
from core.apis import ApiErrorsMixin


class AnswerOnlyModelTrainApi(ApiErrorsMixin, APIView):
    """POST to queue training the round's answer-only model (prompts blanked), which the artifact
    coach asks about drafts; needs enough usable questions. 202: a worker trains it."""

    success_status = 202

    class OutputSerializer(serializers.Serializer):
        detail = serializers.CharField()
        model_name = serializers.CharField()
        job_id = serializers.IntegerField()

    def post(self, request: Request, round_id: int) -> Response:
        round_ = round_for_manager(user=request.user, round_id=round_id)
        job = round_answer_only_model_schedule(round_=round_, user=request.user)
        return Response({"detail": "Training of the answer-only model is queued; a worker runs it.",
                         "model_name": job.name, "job_id": job.pk}, status=status.HTTP_202_ACCEPTED)
