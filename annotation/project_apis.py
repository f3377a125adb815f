"""JSON API of annotation projects: the worker's task list, and for owners their projects, settings
and imports (the same services, limits and all-or-nothing checks as the pages).

GET  /api/annotation/tasks/                          a worker's projects with the work left in each
GET  /api/annotation/projects/                       the instructor's projects
POST /api/annotation/projects/create/                {name, language, settings...}
GET  /api/annotation/projects/<id>/settings/         the project's settings
POST /api/annotation/projects/<id>/settings/update/  any settings to change
POST /api/annotation/projects/<id>/import/articles/  multipart: file (JSON Lines), damping, top, require_infobox
POST /api/annotation/projects/<id>/import/squad/     multipart: file (SQuAD-2.0 / PQuAD JSON), split
"""
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation import selectors, services
from annotation.models import Project, Split
from annotation.services.projects import EDITABLE_FIELDS
from annotation.validation import MAX_UPLOAD_BYTES, read_upload_json, read_upload_text
from core.apis import ApiErrorsMixin, ListPagination, import_error, paginated
from core.exceptions import ImportFailed
from modelhub.models import ModelVersion

_UPLOAD_HELP = f"At most {MAX_UPLOAD_BYTES // (1024 * 1024)} MB of UTF-8 text."


class TaskListApi(ApiErrorsMixin, APIView):
    """GET the active projects a crowdworker (or instructor) can work in: paragraphs left to write
    questions on or to answer again, and their unfinished session in each (start or resume one
    with ``POST projects/<id>/next/``). Empty for students."""

    Pagination = ListPagination

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

    def get(self, request: Request) -> Response:
        tasks = selectors.projects_for_worker(user=request.user)
        return paginated(self, request, tasks, lambda page: self.OutputSerializer(page, many=True).data)


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


class ProjectListApi(ApiErrorsMixin, APIView):
    """GET the projects the signed-in instructor owns (all of them for staff), by name."""

    Pagination = ListPagination

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        language = serializers.CharField()
        is_active = serializers.BooleanField()
        paragraphs = serializers.IntegerField(source="n_paragraphs")
        qa_model = serializers.CharField(source="qa_model.name", allow_null=True, default=None)
        created_at = serializers.DateTimeField()

    def get(self, request: Request) -> Response:
        projects = selectors.projects_for_instructor(user=request.user)
        return paginated(self, request, projects, lambda page: self.OutputSerializer(page, many=True).data)


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
        project = services.project_create(owner=request.user, **serializer.validated_data)
        return Response(ProjectSettingsSerializer(project).data, status=status.HTTP_201_CREATED)


class ProjectSettingsApi(ApiErrorsMixin, APIView):
    """GET the project's settings; its owner only."""

    OutputSerializer = ProjectSettingsSerializer

    def get(self, request: Request, project_id: int) -> Response:
        project = selectors.project_for_owner(user=request.user, project_id=project_id)
        return Response(ProjectSettingsSerializer(project).data)


class ProjectSettingsUpdateApi(ApiErrorsMixin, APIView):
    """POST the settings to change (any subset; the language is fixed once created); all or nothing."""

    success_status = 200

    class InputSerializer(_SettingsInput):
        class Meta:
            model = Project
            fields = EDITABLE_FIELDS

    OutputSerializer = ProjectSettingsSerializer

    def post(self, request: Request, project_id: int) -> Response:
        project = selectors.project_for_owner(user=request.user, project_id=project_id)
        serializer = self.InputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        project = services.project_update(project=project, user=request.user, **serializer.validated_data)
        return Response(ProjectSettingsSerializer(project).data)


class _TextFile(serializers.FileField):
    def to_internal_value(self, data) -> str:
        return read_upload_text(super().to_internal_value(data))


class _JsonFile(serializers.FileField):
    def to_internal_value(self, data):
        return read_upload_json(super().to_internal_value(data))


class ArticleImportApi(ApiErrorsMixin, APIView):
    """POST Wikipedia articles as JSON Lines (multipart ``file``): ranked by PageRank, the top
    articles' paragraphs become tasks. Every line is checked first; any problem and nothing is stored."""

    parser_classes = [MultiPartParser]  # a file upload

    class InputSerializer(serializers.Serializer):
        file = _TextFile(help_text='One article per line: {"title", "paragraphs": [...], "links": [...], '
                                   f'"has_infobox"?}}. {_UPLOAD_HELP}')
        damping = serializers.FloatField(required=False, allow_null=True, default=None, min_value=0.0, max_value=1.0,
                                         help_text="PageRank damping (default: the project's)")
        top = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1, max_value=10**6,
                                       help_text="Keep only the N highest-ranked articles")
        require_infobox = serializers.BooleanField(required=False, default=False)

    class OutputSerializer(serializers.Serializer):
        articles = serializers.IntegerField()
        paragraphs = serializers.IntegerField()
        skipped_no_paragraphs = serializers.IntegerField()
        skipped_infobox = serializers.IntegerField()
        splits = serializers.DictField(child=serializers.IntegerField())

    def post(self, request: Request, project_id: int) -> Response:
        project = selectors.project_for_owner(user=request.user, project_id=project_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            result = services.articles_import(project=project, lines=data["file"].splitlines(), damping=data["damping"],
                                              top=data["top"], require_infobox=data["require_infobox"])
        except ImportFailed as error:
            raise import_error(error) from None
        return Response(self.OutputSerializer(result).data, status=status.HTTP_201_CREATED)


class SquadImportApi(ApiErrorsMixin, APIView):
    """POST a SQuAD-2.0 / PQuAD JSON file (multipart ``file``) into one split: ids, questions, every
    answer and ``is_impossible``. The whole file is checked first; any problem and nothing is stored."""

    parser_classes = [MultiPartParser]  # a file upload

    class InputSerializer(serializers.Serializer):
        file = _JsonFile(help_text=f"SQuAD-2.0 layout: data / title / paragraphs / context / qas. {_UPLOAD_HELP}")
        split = serializers.ChoiceField(choices=Split.choices)

    class OutputSerializer(serializers.Serializer):
        articles = serializers.IntegerField()
        paragraphs = serializers.IntegerField()
        questions = serializers.IntegerField()
        answers = serializers.IntegerField()
        unanswerable = serializers.IntegerField()
        warnings = serializers.ListField(child=serializers.CharField(), help_text="Kept as written, e.g. repeats")

    def post(self, request: Request, project_id: int) -> Response:
        project = selectors.project_for_owner(user=request.user, project_id=project_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            result = services.squad_import(project=project, data=serializer.validated_data["file"],
                                           split=serializer.validated_data["split"])
        except ImportFailed as error:
            raise import_error(error) from None
        return Response(self.OutputSerializer(result).data, status=status.HTTP_201_CREATED)
