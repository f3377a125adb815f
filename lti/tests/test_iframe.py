"""Inside the LMS's iframe: framing allowed for that LMS only, SameSite=None cookies only for LTI sessions over HTTPS."""
import re
from html import unescape
from urllib.request import urlopen

import pytest

from lti.models import ContextLink
from lti.tests.platform_sim import ROLE_LEARNER

pytestmark = pytest.mark.django_db


@pytest.fixture
def linked(platform, lms, course):
    platform.frame_origins = ["https://school.lms.example"]
    platform.save()
    return ContextLink.objects.create(platform=platform, context_id=lms.context_id, course=course)


def _secure_launch(client, lms, round_):
    claims = lms.resource_link_claims(sub="s1", roles=[ROLE_LEARNER], custom={"stumper_round_id": str(round_.pk)})
    params = lms.login_params(claims, tool_launch_url="https://testserver/lti/launch/")
    login = client.post("/lti/login/", params, secure=True)
    state_cookie = next(c for name, c in login.cookies.items() if name.startswith("lti1p3-state"))
    assert state_cookie["samesite"] == "None" and state_cookie["secure"]  # the state must survive the iframe
    with urlopen(login["Location"], timeout=5) as answer:
        html = answer.read().decode()
    fields = {n: unescape(v) for n, v in re.findall(r'name="(\w+)" value="([^"]*)"', html)}
    return client.post("/lti/launch/", fields, secure=True)


def test_lti_session_is_framed_by_its_lms_only_with_cross_site_cookies(client, lms, linked, round_):
    launch = _secure_launch(client, lms, round_)
    assert launch.status_code == 302
    session_cookie = launch.cookies["sessionid"]
    assert session_cookie["samesite"] == "None" and session_cookie["secure"]
    page = client.get(launch["Location"], secure=True)
    assert page.status_code == 200 and "X-Frame-Options" not in page.headers
    assert page.headers["Content-Security-Policy"] == (
        f"frame-ancestors 'self' {lms.url} https://school.lms.example")


def test_other_sessions_keep_deny_and_lax_cookies(client, instructor, round_, platform):
    client.force_login(instructor)
    page = client.get(f"/rounds/{round_.pk}/", secure=True)
    assert page.headers["X-Frame-Options"] == "DENY" and "frame-ancestors" not in page.headers.get("Content-Security-Policy", "")
    assert page.cookies.get("sessionid") is None or page.cookies["sessionid"]["samesite"] != "None"


def test_a_refused_launch_page_can_be_shown_in_the_lms_iframe(client, lms, linked):
    response = client.post("/lti/launch/", {"id_token": "not.a.token", "state": "state-x"}, secure=True)
    assert response.status_code == 400 and "X-Frame-Options" not in response.headers
    assert lms.url in response.headers["Content-Security-Policy"]
