"""POST /api/annotation/sessions/<id>/heartbeat/: the annotation page is open; returns the time on the paragraph.

The page sends one on load and every ``HEARTBEAT_SECONDS`` while visible
(``annotation.services.session_time``); ``active_seconds`` is what its timer shows.
"""
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.apis.worker_language import WorkerLanguageMixin
from annotation.selectors.authoring import session_for_worker
from annotation.services.session_time import HEARTBEAT_SECONDS, session_heartbeat
from core.apis import ApiErrorsMixin


class SessionHeartbeatApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST (no body): count the time since the page's previous heartbeat."""

    def post(self, request: Request, session_id: int) -> Response:
        session = session_for_worker(user=request.user, session_id=session_id)
        session = session_heartbeat(session=session, user=request.user)
        return Response({"active_seconds": session.active_seconds, "heartbeat_seconds": HEARTBEAT_SECONDS})
