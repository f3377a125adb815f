"""The Content-Security-Policy middleware: the setting's policy on every response, unless a view set its own."""
import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from core.csp import HEADER, ContentSecurityPolicyMiddleware


def _headers(response: HttpResponse) -> str | None:
    return ContentSecurityPolicyMiddleware(lambda request: response)(RequestFactory().get("/")).get(HEADER)


def test_every_response_gets_the_policy_of_the_settings(settings):
    settings.STUMPER_CONTENT_SECURITY_POLICY = "default-src 'self'"
    assert _headers(HttpResponse()) == "default-src 'self'"


def test_a_policy_a_view_set_is_kept(settings):
    settings.STUMPER_CONTENT_SECURITY_POLICY = "default-src 'self'"
    response = HttpResponse()
    response[HEADER] = "default-src 'none'"
    assert _headers(response) == "default-src 'none'"


def test_an_empty_policy_sends_no_header(settings):
    settings.STUMPER_CONTENT_SECURITY_POLICY = ""
    assert _headers(HttpResponse()) is None


@pytest.mark.django_db
def test_pages_and_apis_carry_the_default_policy(client, settings):
    for path in ("/accounts/login/", "/api/courses/", "/no-such-page/"):
        assert client.get(path)[HEADER] == settings.STUMPER_CONTENT_SECURITY_POLICY
