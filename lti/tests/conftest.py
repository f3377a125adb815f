"""Fixtures of the LTI tests: a running platform simulator registered with the tool, and full launches."""
import re
import socket
from html import unescape
from unittest.mock import ANY
from urllib.parse import urlencode, urlparse
from urllib.request import urlopen

import pytest

from lti.models import GradeSync
from lti.services.grades import grade_passback
from lti.tests.platform_sim import PlatformSimulator

LAUNCH_URL = "http://testserver/lti/launch/"


@pytest.fixture
def lms(settings):
    # The simulated LMS is an HTTP server on 127.0.0.1: the tool may fetch from it only with both settings on
    # (the test settings have them on; tests of the URL rules turn them off).
    settings.STUMPER_LTI_ALLOW_HTTP = True
    settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = True
    with PlatformSimulator() as simulator:
        yield simulator


@pytest.fixture
def dns(monkeypatch):
    """Invented host names -> the addresses they resolve to, in turn (the last one repeats; [] = the name does not
    resolve); ``dns.asked`` lists the names looked up. Other names and addresses resolve as usual."""
    real = socket.getaddrinfo

    class Dns(dict):
        asked: list[str]

    answers = Dns()
    answers.asked = []

    def getaddrinfo(host, port, *args, **kwargs):
        if host not in answers:
            return real(host, port, *args, **kwargs)
        answers.asked.append(host)
        queue = answers[host]
        if not queue:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        address = queue.pop(0) if len(queue) > 1 else queue[0]
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        return [(family, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answers


@pytest.fixture
def platform(db, lms, client, instructor):
    from lti.services.registration import platform_register

    registered = platform_register(created_by=instructor, **lms.registration())
    lms.tool_jwks = client.get("/lti/jwks/").json()  # what an LMS fetches from the tool
    return registered


@pytest.fixture
def eager_retries():
    """Eager Celery re-raises a task's Retry when it propagates errors; without propagation, apply() runs
    the retries at once (countdowns skipped), as a worker would after the back-off."""
    from celery import current_app as app

    propagates = app.conf.task_eager_propagates
    app.conf.task_eager_propagates = False
    yield
    app.conf.task_eager_propagates = propagates


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


def return_to_lms(lms, answer) -> dict:
    """Post the tool's auto-submitting deep-linking form to the platform (real HTTP), as the browser does;
    the platform's verified LtiDeepLinkingResponse message (Deep Linking 2.0 §4.5)."""
    html = answer.content.decode()
    action = re.search(r'action="([^"]+)"', html).group(1)
    jwt_value = unescape(re.search(r'name="JWT" value="([^"]+)"', html).group(1))
    assert action == f"{lms.url}/deep_link_return"
    with urlopen(action, data=urlencode({"JWT": jwt_value}).encode(), timeout=5) as posted:
        assert posted.status == 200
    return lms.deep_link_responses[-1]  # verified by the platform with the tool's JWKS, aud = the platform


def assert_idempotent_then_sent_again(client, lms, *, student, manager, page_url: str, resend_url: str) -> str:
    """With one score sent: passing back the unchanged score sends nothing, and the page's "send all grades
    again" button (as ``manager``) sends it once more. Returns the page as it was before the button."""
    sync = GradeSync.objects.get(user=student)
    grade_passback(resource_link_id=sync.resource_link_id, user_id=student.pk)  # nothing changed: nothing sent
    assert len(lms.scores) == 1
    client.force_login(manager)
    page = client.get(page_url).content.decode()
    assert "LMS gradebook" in page and 'data-status="sent"' in page
    assert client.post(resend_url)["Location"] == page_url
    assert len(lms.scores) == 2 and lms.scores[1]["score"] == {**lms.scores[0]["score"], "timestamp": ANY}
    return page
