"""JSON API of a project's imports (all or nothing: a file with any problem stores nothing).

POST /api/annotation/projects/<id>/import/articles/  multipart: file (JSON Lines), damping, top, require_infobox
POST /api/annotation/projects/<id>/import/squad/     multipart: file (SQuAD-2.0 / PQuAD JSON), split
"""
from rest_framework import serializers

from annotation.inputs import MAX_UPLOAD_BYTES, read_upload_json, read_upload_text
from annotation.models import Project, Split
from annotation.selectors.projects import project_for_owner
from annotation.services.imports import ArticleImportResult, SquadImportResult, articles_import, squad_import
from core.apis import ImportApi

_UPLOAD_HELP = f"At most {MAX_UPLOAD_BYTES // (1024 * 1024)} MB of UTF-8 text."


class _TextFile(serializers.FileField):
    def to_internal_value(self, data) -> str:
        return read_upload_text(super().to_internal_value(data))


class _JsonFile(serializers.FileField):
    def to_internal_value(self, data):
        return read_upload_json(super().to_internal_value(data))


class ArticleImportApi(ImportApi):
    """POST Wikipedia articles as JSON Lines (multipart ``file``): ranked by PageRank, the top
    articles' paragraphs become tasks. Every line is checked first; any problem and nothing is stored."""

    lookup = staticmethod(project_for_owner)

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

    def run_import(self, project: Project, data: dict) -> ArticleImportResult:
        return articles_import(project=project, lines=data["file"].splitlines(), damping=data["damping"],
                               top=data["top"], require_infobox=data["require_infobox"])


class SquadImportApi(ImportApi):
    """POST a SQuAD-2.0 / PQuAD JSON file (multipart ``file``) into one split: ids, questions, every
    answer and ``is_impossible``. The whole file is checked first; any problem and nothing is stored."""

    lookup = staticmethod(project_for_owner)

    class InputSerializer(serializers.Serializer):
        file = _JsonFile(help_text=f"SQuAD-2.0 layout: data / title / paragraphs / context / qas. {_UPLOAD_HELP}")
        split = serializers.ChoiceField(choices=Split.choices)
        source_dataset = serializers.CharField(
            required=False, allow_blank=True, default="", max_length=200,
            help_text="Hub id of the dataset the file comes from (squad_v2, pquad, ...), recorded for the release")
        source_license = serializers.CharField(
            required=False, allow_blank=True, default="", max_length=64,
            help_text="Hub license id of that dataset (known for squad_v2, pquad)")

    class OutputSerializer(serializers.Serializer):
        articles = serializers.IntegerField()
        paragraphs = serializers.IntegerField()
        questions = serializers.IntegerField()
        answers = serializers.IntegerField()
        unanswerable = serializers.IntegerField()
        warnings = serializers.ListField(child=serializers.CharField(), help_text="Kept as written, e.g. repeats")

    def run_import(self, project: Project, data: dict) -> SquadImportResult:
        return squad_import(project=project, data=data["file"], split=data["split"],
                            source_dataset=data["source_dataset"], source_license=data["source_license"])
