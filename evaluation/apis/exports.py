"""JSON API of the weighted dataset exports: a round's questions as CODAH TSV or JSON lines, a
project's as SQuAD-2.0 JSON, each optionally with an evaluation report's reweighting weights.

GET /api/rounds/<id>/export/?format=tsv|jsonl&weights_run=                  as ``manage.py export_codah``
GET /api/annotation/projects/<id>/export/?split=&weights_run=               as ``manage.py export_squad``

The paths are the round's and the project's, the names evaluation's (``evaluation_api:round_export``,
``evaluation_api:project_export``; ``evaluation/export_urls.py``), since the weights are an evaluation
report's. The files themselves are built by ``collector.selectors.exports`` and ``annotation.selectors.exports``.
"""
import json

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.models import Project, Split
from annotation.selectors.exports import project_squad_dict
from annotation.selectors.projects import project_for_owner
from collector.models import Round
from collector.selectors.exports import round_export_codah_tsv, round_export_records
from collector.selectors.rounds import round_for_manager
from core.apis import MAX_ID, ApiErrorsMixin, FormatParamNegotiation, file_response
from evaluation.selectors.exports import InstanceKey, evaluation_run_weights


def _weights(run_id: int | None, *, round_: Round | None = None,
             project: Project | None = None) -> dict[InstanceKey, float] | None:
    """The weights of report ``run_id`` (none asked: ``None``); a refusal is an error of ``weights_run``."""
    if run_id is None:
        return None
    try:
        return evaluation_run_weights(run_id=run_id, round_=round_, project=project)
    except DjangoValidationError as error:
        raise serializers.ValidationError({"weights_run": error.messages}) from None


class RoundExportApi(ApiErrorsMixin, APIView):
    """GET the round's questions as CODAH TSV (re-importable) or JSON lines with the live model's
    answer. ``weights_run`` (a finished evaluation report of the round) adds its reweighting
    weights n·q: 4 more TSV columns after the index, or ``"weights"`` in each JSON line."""

    content_negotiation_class = FormatParamNegotiation
    output_media_type = "text/tab-separated-values"

    class FilterSerializer(serializers.Serializer):
        format = serializers.ChoiceField(choices=["tsv", "jsonl"], default="tsv")
        weights_run = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)

    def get(self, request: Request, round_id: int):
        round_ = round_for_manager(user=request.user, round_id=round_id)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        run_id = filters.validated_data.get("weights_run")
        weights = _weights(run_id, round_=round_)
        suffix = "" if run_id is None else f"-weights-{run_id}"
        if filters.validated_data["format"] == "tsv":
            return file_response(round_export_codah_tsv(round_=round_, weights=weights),
                                 content_type="text/tab-separated-values; charset=utf-8",
                                 filename=f"{round_.name}{suffix}.tsv")
        records = round_export_records(round_=round_, weights=weights)
        return file_response("".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records),
                             content_type="application/x-ndjson; charset=utf-8", filename=f"{round_.name}{suffix}.jsonl")


class ProjectExportApi(ApiErrorsMixin, APIView):
    """GET the project's submitted questions as SQuAD-2.0 JSON (``?split=train|validation|test``;
    ``&weights_run=<evaluation run id>`` gives every qa that report's reweighting ``weight``)."""

    class FilterSerializer(serializers.Serializer):
        split = serializers.ChoiceField(choices=Split.choices, required=False)
        weights_run = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)

    def get(self, request: Request, project_id: int) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        project = project_for_owner(user=request.user, project_id=project_id)
        weights = _weights(filters.validated_data.get("weights_run"), project=project)
        return Response(project_squad_dict(project=project, split=filters.validated_data.get("split"),
                                           weights=weights))
