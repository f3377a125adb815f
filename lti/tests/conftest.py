"""Fixtures of the LTI tests: a running platform simulator registered with the tool, and full launches."""
import re
from html import unescape
from urllib.parse import urlparse
from urllib.request import urlopen

import pytest

from lti.tests.platform_sim import PlatformSimulator

LAUNCH_URL = "http://testserver/lti/launch/"


@pytest.fixture
def lms():
    with PlatformSimulator() as simulator:
        yield simulator


@pytest.fixture
def platform(db, lms, client, instructor):
    from lti.services.registration import platform_register

    registered = platform_register(created_by=instructor, **lms.registration())
    lms.tool_jwks = client.get("/lti/jwks/").json()  # what an LMS fetches from the tool
    return registered


def login_and_launch(client, lms, claims, **options):
    """OIDC login initiation at the tool -> the platform's auth endpoint (real HTTP) -> the launch POST.

    Returns the tool's response to the launch."""
    params = lms.login_params(claims, tool_launch_url=LAUNCH_URL, **options)
    response = client.post("/lti/login/", params)
    assert response.status_code == 302, response.content
    auth_url = response["Location"]
    assert urlparse(auth_url).netloc == urlparse(lms.url).netloc
    fields = urlopen_form(auth_url)
    return client.post("/lti/launch/", fields), fields


def urlopen_form(auth_url: str) -> dict:
    """GET the platform's OIDC auth endpoint (real HTTP); it answers with an auto-submitted form."""
    with urlopen(auth_url, timeout=5) as answer:
        html = answer.read().decode()
    return {name: unescape(value) for name, value in re.findall(r'name="(\w+)" value="([^"]*)"', html)}
