"""JSON API of the files uploaded for the ambiguity probes (uploading one is part of starting a
project report: ``evaluation/apis/reports.py``)."""
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.apis import ApiErrorsMixin
from evaluation.models import AmbiguityDataset
from evaluation.selectors.ambiguity_datasets import ambiguity_datasets
from evaluation.selectors.reports import project_for_evaluation


class AmbiguityDatasetListApi(ApiErrorsMixin, APIView):
    """GET: a project's uploaded question sets and occupation lists, newest first (ids to choose)."""

    class OutputSerializer(serializers.ModelSerializer):
        class Meta:
            model = AmbiguityDataset
            fields = ("id", "kind", "name", "items", "script", "sha256", "created_at")
            read_only_fields = fields  # an answer only: every field is always there

    def get(self, request: Request, project_id: int) -> Response:
        project = project_for_evaluation(user=request.user, project_id=project_id)
        datasets = ambiguity_datasets(project=project)
        return Response(self.OutputSerializer(datasets, many=True).data)
