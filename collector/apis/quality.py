"""JSON API of a round's quality report, for its course's instructors.

GET  /api/rounds/<id>/quality/            status counts, human accuracy, kappas, validators, coach

Its settings are changed through ``apis/round_settings.py`` (``/api/rounds/<id>/quality/settings/``).
"""
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from collector.selectors.quality import round_quality_report
from collector.selectors.rounds import round_for_manager
from core.apis import ApiErrorsMixin


class RoundQualityApi(ApiErrorsMixin, APIView):
    """The round's quality report: status counts, human accuracy, kappas, validators, coach."""

    def get(self, request: Request, round_id: int) -> Response:
        round_ = round_for_manager(user=request.user, round_id=round_id)
        return Response(round_quality_report(round_=round_))
