"""JSON API of a worker's home: the projects they can work in, and starting (or resuming) a paragraph.

GET  /api/annotation/tasks/                 a worker's projects with the work left in each
POST /api/annotation/projects/<id>/next/    resume the unfinished paragraph, or start the next one
"""
from django.utils import translation
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.apis.worker_language import WorkerLanguageMixin
from annotation.models import AnnotationSession
from annotation.presentation.sessions import session_payload
from annotation.selectors.projects import project_for_worker
from annotation.selectors.worker_home import ProjectTasks, projects_for_worker
from annotation.services.authoring import session_start_next
from core.apis import ApiErrorsMixin, ListApi


class TaskListApi(ListApi):
    """GET the active projects a crowdworker (or instructor) can work in: paragraphs left to write
    questions on or to answer again, and their unfinished session in each (start or resume one
    with ``POST projects/<id>/next/``). Empty for students."""

    class OutputSerializer(serializers.Serializer):
        project_id = serializers.IntegerField(source="project.pk")
        name = serializers.CharField(source="project.name")
        language = serializers.CharField(source="project.language")
        instructions = serializers.CharField(source="project.instructions")
        authoring_left = serializers.IntegerField()
        second_pass_left = serializers.IntegerField()
        resume_authoring = serializers.IntegerField(source="resume_authoring.pk", allow_null=True, default=None,
                                                    help_text="Id of the unfinished authoring session")
        resume_second_pass = serializers.IntegerField(source="resume_second_pass.pk", allow_null=True, default=None)

    def items(self, request: Request) -> list[ProjectTasks]:
        return projects_for_worker(user=request.user, language=translation.get_language())


class TaskNextApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST: resume the worker's unfinished paragraph in the project, or start the next one."""

    class InputSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(choices=AnnotationSession.Kind.choices, default=AnnotationSession.Kind.AUTHORING)

    def post(self, request: Request, project_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        project = project_for_worker(user=request.user, project_id=project_id)
        session = session_start_next(user=request.user, project=project, kind=serializer.validated_data["kind"])
        if session is None:
            return Response({"session": None, "detail": _("No paragraph needs this kind of work right now.")})
        return Response({"session": session_payload(session)})
