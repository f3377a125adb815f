"""JSON API of annotation projects for their owners: their projects, creating one, its settings
(the same services, limits and checks as the pages).

GET  /api/annotation/projects/                       the instructor's projects
POST /api/annotation/projects/create/                {name, language, settings...}
GET  /api/annotation/projects/<id>/settings/         the project's settings
POST /api/annotation/projects/<id>/settings/update/  any settings to change
"""
from django.db.models import QuerySet
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.models import Project
from annotation.selectors.projects import project_for_owner, projects_for_instructor
from annotation.services.projects import EDITABLE_FIELDS, project_create, project_update
from core.apis import ApiErrorsMixin, DetailApi, ListApi
from modelhub.models import ModelVersion


class ProjectSettingsSerializer(serializers.ModelSerializer):
    """A project with every setting its owner may change (``qa_model`` is a model version id)."""

    owner = serializers.CharField(source="owner.username")

    class Meta:
        model = Project
        fields = ("id", "name", "language", "owner", "created_at", *EDITABLE_FIELDS)


class _SettingsInput(serializers.ModelSerializer):
    # Only extractive QA models can be in the loop; the service says so too, this gives a 400 early.
    qa_model = serializers.PrimaryKeyRelatedField(
        queryset=ModelVersion.objects.filter(kind=ModelVersion.Kind.QUESTION_ANSWERING), required=False,
        allow_null=True, help_text="Id of a question-answering model version, or null for none")


class ProjectListApi(ListApi):
    """GET the projects the signed-in instructor owns (all of them for staff), by name."""

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        language = serializers.CharField()
        is_active = serializers.BooleanField()
        paragraphs = serializers.IntegerField(source="n_paragraphs")
        qa_model = serializers.CharField(source="qa_model.name", allow_null=True, default=None)
        created_at = serializers.DateTimeField()

    def items(self, request: Request) -> QuerySet[Project]:
        return projects_for_instructor(user=request.user)


class ProjectCreateApi(ApiErrorsMixin, APIView):
    """POST a new project owned by the signed-in instructor; settings left out get their defaults."""

    class InputSerializer(_SettingsInput):
        class Meta:
            model = Project
            fields = ("name", "language", *EDITABLE_FIELDS)

    OutputSerializer = ProjectSettingsSerializer

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        project = project_create(owner=request.user, **serializer.validated_data)
        return Response(ProjectSettingsSerializer(project).data, status=status.HTTP_201_CREATED)


class ProjectSettingsApi(DetailApi):
    """GET the project's settings; its owner only."""

    OutputSerializer = ProjectSettingsSerializer
    lookup = staticmethod(project_for_owner)


class ProjectSettingsUpdateApi(ApiErrorsMixin, APIView):
    """POST the settings to change (any subset; the language is fixed once created); all or nothing."""

    success_status = 200

    class InputSerializer(_SettingsInput):
        class Meta:
            model = Project
            fields = EDITABLE_FIELDS

    OutputSerializer = ProjectSettingsSerializer

    def post(self, request: Request, project_id: int) -> Response:
        project = project_for_owner(user=request.user, project_id=project_id)
        serializer = self.InputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        project = project_update(project=project, user=request.user, **serializer.validated_data)
        return Response(ProjectSettingsSerializer(project).data)
