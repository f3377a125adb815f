"""JSON API of a project owner's participant requests, as on the Participants page.

GET  /api/annotation/projects/<id>/participants/                     {participants: [who wrote what (counts)]}
GET  /api/annotation/projects/<id>/participants/<user id>/export/    everything they wrote in the project
POST /api/annotation/projects/<id>/participants/<user id>/delete/    delete it (idempotent); the log row's counts
"""
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.selectors.participants import participant_export, participant_for_owner, participants_of_project
from annotation.selectors.projects import project_for_owner
from annotation.services.participants import participant_delete
from core.apis import ApiErrorsMixin


class ParticipantSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="worker_id", help_text="The user id the export and delete URLs take")
    username = serializers.CharField()
    sessions = serializers.IntegerField()
    questions = serializers.IntegerField()
    second_pass_answers = serializers.IntegerField()
    flags = serializers.IntegerField()


class ParticipantListApi(ApiErrorsMixin, APIView):
    """GET the project's participants with how many sessions, questions, second-pass answers and flags each has."""

    class OutputSerializer(serializers.Serializer):
        participants = ParticipantSerializer(many=True)

    def get(self, request: Request, project_id: int) -> Response:
        project = project_for_owner(user=request.user, project_id=project_id)
        return Response(self.OutputSerializer({"participants": participants_of_project(project=project)}).data)


class ParticipantExportApi(ApiErrorsMixin, APIView):
    """GET everything the participant wrote in the project (the page's JSON download)."""

    def get(self, request: Request, project_id: int, participant_id: int) -> Response:
        project = project_for_owner(user=request.user, project_id=project_id)
        worker = participant_for_owner(project=project, worker_id=participant_id)
        return Response(participant_export(project=project, worker=worker))


class ParticipantDeleteApi(ApiErrorsMixin, APIView):
    """POST to delete the participant's data in the project; answers with the deletion log row."""

    success_status = 200

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        counts = serializers.DictField(child=serializers.IntegerField())
        created_at = serializers.DateTimeField()

    def post(self, request: Request, project_id: int, participant_id: int) -> Response:
        project = project_for_owner(user=request.user, project_id=project_id)
        worker = participant_for_owner(project=project, worker_id=participant_id)
        deletion = participant_delete(project=project, worker_id=worker.pk, user=request.user)
        return Response(self.OutputSerializer(deletion).data)
