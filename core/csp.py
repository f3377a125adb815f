"""The Content-Security-Policy header (``STUMPER_CONTENT_SECURITY_POLICY``) on every response.

Django 5.2 has no CSP of its own; one header from one setting is all the app needs, so this is a
middleware rather than a package. The policy (config/settings/security.py) lets scripts come only from
this site: no inline ``<script>`` and no ``on…=`` attributes in the templates (data for the pages
travels in ``<script type="application/json">`` blocks, which never run; tests/test_security_csp.py
checks every template), and no ``eval``: the charts run Vega's CSP-safe expression interpreter
(static/js/charts.js). A response that already carries a policy (set by its view) keeps it.
"""
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin

HEADER = "Content-Security-Policy"


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    """Adds ``settings.STUMPER_CONTENT_SECURITY_POLICY`` (when not empty) to every response."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        policy = settings.STUMPER_CONTENT_SECURITY_POLICY
        if policy and HEADER not in response:
            response[HEADER] = policy
        return response
