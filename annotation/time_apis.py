"""POST /api/annotation/sessions/<id>/heartbeat/: the annotation page is open; returns the time on the paragraph.

The page sends one on load and every ``HEARTBEAT_SECONDS`` while visible
(``annotation.services.session_time``); ``active_seconds`` is what its timer shows.
"""
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation import selectors, services
from annotation.api_language import WorkerLanguageMixin
from core.apis import ApiErrorsMixin


class SessionHeartbeatApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST (no body): count the time since the page's previous heartbeat."""

    def post(self, request: Request, session_id: int) -> Response:
        session = selectors.session_for_worker(user=request.user, session_id=session_id)
        session = services.session_heartbeat(session=session, user=request.user)
        return Response({"active_seconds": session.active_seconds, "heartbeat_seconds": services.HEARTBEAT_SECONDS})
