"""JSON API of the leaderboards and vMER: one ``APIView`` per operation.

An operation that exists for rounds and projects is one base view with a subclass per target,
which only words its documentation (the OpenAPI description). Access follows the evaluation
reports: a round's course instructors (and staff), a project's owner. Errors never become a 500
(``ApiErrorsMixin``): a bad model id or a target without questions is a 400 that says what is
missing.
"""
from django.utils import timezone
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.apis import ApiErrorsMixin, file_response
from core.exceptions import AccessError
from courses import selectors as course_selectors
from evaluation.reports.leaderboards import evaluation_json, evaluation_payload, leaderboard_csv, leaderboard_filename
from evaluation.selectors import leaderboards as leaderboard_selectors
from evaluation.selectors.reports import evaluation_target
from evaluation.services.leaderboards import model_evaluation_start


class StartSerializer(serializers.Serializer):
    model_version = serializers.IntegerField(min_value=1, help_text="Id of a registered model version")


def _live_model_id(target: dict) -> int | None:
    return target["round_"].live_model_id if "round_" in target else None


class _ModelEvaluationStartApi(ApiErrorsMixin, APIView):
    InputSerializer = StartSerializer

    def post(self, request: Request, round_id: int | None = None, project_id: int | None = None) -> Response:
        target = evaluation_target(user=request.user, round_id=round_id, project_id=project_id)
        serializer = StartSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            version = leaderboard_selectors.model_version_for_evaluation(
                user=request.user, version_id=serializer.validated_data["model_version"])
        except AccessError as error:
            return Response({"model_version": [error.message]}, status=status.HTTP_400_BAD_REQUEST)
        asked_at = timezone.now()
        evaluation = model_evaluation_start(model_version=version, user=request.user, **target)
        created = evaluation.created_at >= asked_at  # else an entry on the same data, or the job already queued
        return Response(evaluation_payload(evaluation, live_model_id=_live_model_id(target)),
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class RoundModelEvaluationStartApi(_ModelEvaluationStartApi):
    """POST ``{"model_version": id}``: evaluate that version on the round's accepted questions.
    201 with the queued job; 200 with the existing one when the same model was already evaluated on
    the same data (or is being evaluated now)."""


class ProjectModelEvaluationStartApi(_ModelEvaluationStartApi):
    """POST ``{"model_version": id}``: evaluate a QA model on the project's test split."""


class _LeaderboardApi(ApiErrorsMixin, APIView):
    def get(self, request: Request, round_id: int | None = None, project_id: int | None = None) -> Response:
        target = evaluation_target(user=request.user, round_id=round_id, project_id=project_id)
        active = leaderboard_selectors.active_model_evaluations(**target)
        return Response({**leaderboard_selectors.leaderboard(**target),
                         "active": [evaluation_payload(e, live_model_id=_live_model_id(target)) for e in active]})


class RoundLeaderboardApi(_LeaderboardApi):
    """GET: every model evaluated on the round (best first, the live model marked) and the jobs
    still running."""


class ProjectLeaderboardApi(_LeaderboardApi):
    """GET: every QA model evaluated on the project's test split, best EM first."""


class _LeaderboardCsvApi(ApiErrorsMixin, APIView):
    output_media_type = "text/csv"

    def get(self, request: Request, round_id: int | None = None, project_id: int | None = None):
        target = evaluation_target(user=request.user, round_id=round_id, project_id=project_id)
        return file_response(leaderboard_csv(leaderboard_selectors.leaderboard(**target)),
                             content_type="text/csv; charset=utf-8", filename=leaderboard_filename(**target, ext="csv"))


class RoundLeaderboardCsvApi(_LeaderboardCsvApi):
    """GET the round's leaderboard as CSV (one row per model; per-category accuracy columns)."""


class ProjectLeaderboardCsvApi(_LeaderboardCsvApi):
    """GET the project's leaderboard as CSV (EM/F1 overall, HasAns and NoAns)."""


class ModelEvaluationDetailApi(ApiErrorsMixin, APIView):
    """GET one evaluation with its result and every per-question prediction."""

    def get(self, request: Request, evaluation_id: int) -> Response:
        evaluation = leaderboard_selectors.model_evaluation_for_user(user=request.user, evaluation_id=evaluation_id)
        live_id = evaluation.round.live_model_id if evaluation.round_id else None
        return Response(evaluation_json(evaluation, live_model_id=live_id))


class CourseVmerApi(ApiErrorsMixin, APIView):
    """GET the validated model error rate of each round of a course, oldest round first, with
    Wilson 95% intervals: the "model gets harder to fool" curve."""

    def get(self, request: Request, course_id: int) -> Response:
        course = course_selectors.course_for_manager(user=request.user, course_id=course_id)
        return Response(leaderboard_selectors.vmer_curve(course=course))
