"""JSON API of dataset releases: the zip of the ``export_hf`` folder, for the course's
instructors (a round) or the project's owner (and staff); errors are JSON.

GET /api/evaluation/rounds/<id>/release/?status=&split_by=&fields=&license=&authors=&seed=
GET /api/evaluation/projects/<id>/release/?...      (same parameters; see docs/release.md)
"""
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.views import APIView

from core.apis import ApiErrorsMixin, FormatParamNegotiation, file_response
from evaluation.selectors.releases import ReleaseError
from evaluation.selectors.reports import evaluation_target
from evaluation.services.releases import release_options_from_query, release_zip


class _ReleaseApi(ApiErrorsMixin, APIView):
    content_negotiation_class = FormatParamNegotiation

    def get(self, request: Request, round_id: int | None = None, project_id: int | None = None):
        target = evaluation_target(user=request.user, round_id=round_id, project_id=project_id)
        try:
            name, content = release_zip(options=release_options_from_query(request.query_params), **target)
        except ReleaseError as error:
            raise serializers.ValidationError(
                {"detail": [error.worded(lambda option, value: f"Ask with {option}={value}.")]}) from None
        return file_response(content, content_type="application/zip", filename=name)


class RoundReleaseApi(_ReleaseApi):
    """GET the round's dataset release as a zip (Parquet per split + README.md dataset card)."""


class ProjectReleaseApi(_ReleaseApi):
    """GET the project's dataset release (squad_v2 schema) as a zip."""
