"""JSON API to import a CODAH file into a round, for its course's instructors.

POST /api/rounds/<id>/import/  (multipart: file, allow_duplicate_choices)   as ``manage.py import_codah``

The CODAH export (``GET /api/rounds/<id>/export/``), which can add an evaluation report's
weights, is ``evaluation.apis.exports.RoundExportApi``. An import is all or nothing, with the same
byte and row limits as the command (``STUMPER_IMPORT_MAX_*``); its errors are JSON.
"""
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from collector.cleaning import import_file_text
from collector.models import Round
from collector.selectors.rounds import round_for_manager
from collector.services.imports import CODAH_SOURCE, codah_import
from core.apis import ImportApi


class CodahFileField(serializers.FileField):
    """A CODAH TSV upload as text. A file over the import limit is read only just past it: the
    import service then refuses it for its size, with its own message, and nothing more is read."""

    def to_internal_value(self, data) -> str:
        try:
            return import_file_text(super().to_internal_value(data))
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.messages) from None


class RoundImportApi(ImportApi):
    """POST a CODAH TSV file (7 tab-separated fields: category letters, prompt, 4 answers, right
    index) as multipart ``file``: every row is imported, as accepted questions by the course's
    owner, or none; bad rows are listed by line."""

    lookup = staticmethod(round_for_manager)

    class InputSerializer(serializers.Serializer):
        file = CodahFileField()
        allow_duplicate_choices = serializers.BooleanField(
            required=False, default=False,
            help_text="Accept rows that repeat a completion (three rows of the public CODAH release do)")
        source_dataset = serializers.CharField(
            required=False, allow_blank=True, default=CODAH_SOURCE, max_length=200,
            help_text="Hub id of the dataset the file comes from, recorded for the round's release (blank: none)")
        source_license = serializers.CharField(
            required=False, allow_blank=True, default="", max_length=64,
            help_text="Hub license id of that dataset (known for codah, squad_v2, pquad)")

    class OutputSerializer(serializers.Serializer):
        round_id = serializers.IntegerField()
        imported = serializers.IntegerField()
        question_ids = serializers.ListField(child=serializers.IntegerField())

    def run_import(self, round_: Round, data: dict) -> dict:
        questions = codah_import(round_=round_, text=data["file"], author=round_.course.owner,
                                 allow_duplicate_choices=data["allow_duplicate_choices"],
                                 source_dataset=data["source_dataset"], source_license=data["source_license"])
        return {"round_id": round_.pk, "imported": len(questions), "question_ids": [q.pk for q in questions]}
