"""JSON API of the leaderboards and vMER: one ``APIView`` per operation.

Access follows the evaluation reports: a round's course instructors (and staff), a project's
owner. Errors never become a 500 (``ApiErrorsMixin``): a bad model id or a target without
questions is a 400 that says what is missing.
"""
from django.utils import timezone
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.apis import ApiErrorsMixin, file_response
from core.exceptions import AccessError
from courses import selectors as course_selectors
from evaluation.reports.leaderboards import (
    evaluation_json,
    evaluation_payload,
    leaderboard_csv,
)
from evaluation.selectors import leaderboards as leaderboard_selectors
from evaluation.selectors import reports as evaluation_selectors
from evaluation.services import leaderboards as leaderboard_services


class StartSerializer(serializers.Serializer):
    model_version = serializers.IntegerField(min_value=1, help_text="Id of a registered model version")


def _start(request: Request, *, round_=None, project=None) -> Response:
    serializer = StartSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    try:
        version = leaderboard_selectors.model_version_for_evaluation(
            version_id=serializer.validated_data["model_version"])
    except AccessError as error:
        return Response({"model_version": [error.message]}, status=status.HTTP_400_BAD_REQUEST)
    asked_at = timezone.now()
    evaluation = leaderboard_services.model_evaluation_start(model_version=version, round_=round_, project=project,
                                                             user=request.user)
    created = evaluation.created_at >= asked_at  # else an entry on the same data, or the job already queued
    live_id = round_.live_model_id if round_ is not None else None
    return Response(evaluation_payload(evaluation, live_model_id=live_id),
                    status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class RoundModelEvaluationStartApi(ApiErrorsMixin, APIView):
    """POST ``{"model_version": id}``: evaluate that version on the round's accepted questions.
    201 with the queued job; 200 with the existing one when the same model was already evaluated on
    the same data (or is being evaluated now)."""

    InputSerializer = StartSerializer

    def post(self, request: Request, round_id: int) -> Response:
        round_ = evaluation_selectors.round_for_evaluation(user=request.user, round_id=round_id)
        return _start(request, round_=round_)


class ProjectModelEvaluationStartApi(ApiErrorsMixin, APIView):
    """POST ``{"model_version": id}``: evaluate a QA model on the project's test split."""

    InputSerializer = StartSerializer

    def post(self, request: Request, project_id: int) -> Response:
        project = evaluation_selectors.project_for_evaluation(user=request.user, project_id=project_id)
        return _start(request, project=project)


class RoundLeaderboardApi(ApiErrorsMixin, APIView):
    """GET: every model evaluated on the round (best first, the live model marked) and the jobs
    still running."""

    def get(self, request: Request, round_id: int) -> Response:
        round_ = evaluation_selectors.round_for_evaluation(user=request.user, round_id=round_id)
        active = leaderboard_selectors.active_model_evaluations(round_=round_)
        return Response({**leaderboard_selectors.leaderboard(round_=round_),
                         "active": [evaluation_payload(e, live_model_id=round_.live_model_id) for e in active]})


class ProjectLeaderboardApi(ApiErrorsMixin, APIView):
    """GET: every QA model evaluated on the project's test split, best EM first."""

    def get(self, request: Request, project_id: int) -> Response:
        project = evaluation_selectors.project_for_evaluation(user=request.user, project_id=project_id)
        active = leaderboard_selectors.active_model_evaluations(project=project)
        return Response({**leaderboard_selectors.leaderboard(project=project), "active": [evaluation_payload(e) for e in active]})


class RoundLeaderboardCsvApi(ApiErrorsMixin, APIView):
    """GET the round's leaderboard as CSV (one row per model; per-category accuracy columns)."""

    output_media_type = "text/csv"

    def get(self, request: Request, round_id: int):
        round_ = evaluation_selectors.round_for_evaluation(user=request.user, round_id=round_id)
        return _csv(leaderboard_selectors.leaderboard(round_=round_), f"stumper-leaderboard-round-{round_.name}.csv")


class ProjectLeaderboardCsvApi(ApiErrorsMixin, APIView):
    """GET the project's leaderboard as CSV (EM/F1 overall, HasAns and NoAns)."""

    output_media_type = "text/csv"

    def get(self, request: Request, project_id: int):
        project = evaluation_selectors.project_for_evaluation(user=request.user, project_id=project_id)
        return _csv(leaderboard_selectors.leaderboard(project=project), f"stumper-leaderboard-project-{project.pk}.csv")


def _csv(board: dict, filename: str):
    return file_response(leaderboard_csv(board), content_type="text/csv; charset=utf-8", filename=filename)


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
