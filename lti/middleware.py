"""Let the pages of an LTI session work inside the LMS's iframe, and nothing else.

For a session that began with an LTI launch (and for the launch endpoints themselves), the response
may be framed by that LMS only: ``X-Frame-Options`` (DENY by default) is replaced by a CSP
``frame-ancestors 'self' <the LMS's origins>``. Over HTTPS its session and CSRF cookies are sent
``SameSite=None; Secure``, which a browser needs to keep them in a third-party iframe. Every other
session keeps Django's defaults (X-Frame-Options: DENY, SameSite=Lax).

Listed in MIDDLEWARE before SessionMiddleware, so its response step runs after the session cookie is set.
"""
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from lti.models import Platform

LTI_ENTRY_PATHS = ("/lti/login/", "/lti/launch/")


class LtiFrameMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        origins = self._frame_origins(request)
        if origins is None:
            return response
        if "X-Frame-Options" in response.headers:
            del response.headers["X-Frame-Options"]
        response.xframe_options_exempt = True
        ancestors = " ".join(["'self'", *origins])
        csp = response.headers.get("Content-Security-Policy")
        response.headers["Content-Security-Policy"] = (f"{csp}; " if csp else "") + f"frame-ancestors {ancestors}"
        if request.is_secure():
            for name in (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME):
                if name in response.cookies:
                    response.cookies[name]["samesite"] = "None"
                    response.cookies[name]["secure"] = True
        return response

    @staticmethod
    def _frame_origins(request: HttpRequest) -> list[str] | None:
        """The LMS origins that may frame this response, or None to leave the response alone."""
        session = getattr(request, "session", None)
        lti = session.get("lti") if session is not None else None
        if lti:
            platform = Platform.objects.filter(pk=lti.get("platform_id")).first()
            return platform.allowed_frame_origins() if platform else None
        if request.path in LTI_ENTRY_PATHS:  # e.g. a refused launch's page, shown in the LMS's iframe
            return sorted({o for p in Platform.objects.all() for o in p.allowed_frame_origins()})
        return None
