"""Full launches through the platform simulator: OIDC login initiation, the signed launch, sign-in,
enrolment by the LTI roles claim and the landing page; then every bad launch of issue 17."""
import base64
import json
import re
import time
from html import unescape

import pytest

from accounts.models import User
from courses.models import Enrollment
from lti.models import ContextLink, LtiIdentity, ResourceLink
from lti.tests.conftest import login_and_launch, urlopen_form
from lti.tests.platform_sim import (
    ROLE_INSTITUTION_INSTRUCTOR,
    ROLE_INSTRUCTOR,
    ROLE_LEARNER,
    ROLE_TA,
    rsa_key,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def linked(platform, lms, course):
    return ContextLink.objects.create(platform=platform, context_id=lms.context_id, course=course)


def test_learner_launch_signs_in_enrols_and_opens_the_round(client, lms, linked, round_):
    claims = lms.resource_link_claims(sub="learner-1", roles=[ROLE_LEARNER], custom={"stumper_round_id": str(round_.pk)})
    response, _ = login_and_launch(client, lms, claims)
    assert response.status_code == 302 and response["Location"] == f"/rounds/{round_.pk}/write/"
    user = LtiIdentity.objects.get(platform=linked.platform, subject="learner-1").user
    assert user.role == User.Role.STUDENT and user.email == "learner-1@lms.example"
    assert Enrollment.objects.filter(course=linked.course, user=user).exists()
    assert client.get(response["Location"]).status_code == 200  # signed in
    link = ResourceLink.objects.get(context=linked, resource_link_id="link-1")
    assert link.round == round_ and link.lineitem_url.endswith("/lineitems/link-1")


def test_second_launch_reuses_the_account_linked_by_issuer_and_subject_never_by_email(client, lms, linked):
    existing = User.objects.create_user("mallory", email="learner-2@lms.example", password="x-very-long-pass-123")
    claims = lms.resource_link_claims(sub="learner-2", roles=[ROLE_LEARNER])
    login_and_launch(client, lms, claims)
    client.logout()
    login_and_launch(client, lms, claims)
    identity = LtiIdentity.objects.get(subject="learner-2")
    assert identity.user != existing and LtiIdentity.objects.filter(subject="learner-2").count() == 1
    assert not Enrollment.objects.filter(user=existing).exists()


@pytest.mark.parametrize("role", [ROLE_INSTRUCTOR, ROLE_TA])
def test_instructor_and_ta_become_course_instructors(client, lms, linked, role):
    response, _ = login_and_launch(client, lms, lms.resource_link_claims(sub="teacher", roles=[role]))
    assert response["Location"] == f"/courses/{linked.course.pk}/"
    user = LtiIdentity.objects.get(subject="teacher").user
    assert linked.course.instructors.filter(pk=user.pk).exists()
    assert not Enrollment.objects.filter(user=user).exists()


def test_first_launch_from_unknown_context_lets_the_instructor_create_a_course(client, lms, platform):
    response, _ = login_and_launch(client, lms, lms.resource_link_claims(sub="prof", roles=[ROLE_INSTRUCTOR]))
    assert response.status_code == 302 and "/course/" in response["Location"]
    page = client.get(response["Location"])
    assert b"Commonsense 101" in page.content
    done = client.post(response["Location"], {"course": "", "new_course_name": "Commonsense 101"})
    context = ContextLink.objects.get(context_id=lms.context_id)
    assert context.course.name == "Commonsense 101" and done["Location"] == f"/courses/{context.course.pk}/"
    assert context.course.instructors.filter(lti_identities__subject="prof").exists()


def test_first_launch_can_link_an_existing_course(client, lms, platform, course, instructor):
    response, _ = login_and_launch(client, lms, lms.resource_link_claims(sub="prof", roles=[ROLE_INSTRUCTOR]))
    prof = LtiIdentity.objects.get(subject="prof").user
    course.instructors.add(prof)  # the LMS account manages this Stumper course too
    client.post(response["Location"], {"course": course.pk})
    assert ContextLink.objects.get(context_id=lms.context_id).course == course


def test_learner_from_a_context_not_set_up_gets_a_clear_page_and_no_account(client, lms, platform):
    response, _ = login_and_launch(client, lms, lms.resource_link_claims(sub="early", roles=[ROLE_LEARNER]))
    assert response.status_code == 403 and b"not set up Stumper for this course" in response.content
    assert not LtiIdentity.objects.exists()


# --- bad launches: a clear page, no account, no enrolment ---------------------------------------------

def _assert_refused(response, reason: bytes, users_before: int, status: int = 400):
    assert response.status_code == status, response.content
    assert reason in response.content, response.content.decode()
    assert User.objects.count() == users_before and not LtiIdentity.objects.exists()
    assert not Enrollment.objects.exclude(user__lti_identities=None).exists()


def test_expired_launch(client, lms, linked):
    before = User.objects.count()
    claims = lms.resource_link_claims(sub="late", roles=[ROLE_LEARNER])
    response, _ = login_and_launch(client, lms, claims, exp=int(time.time()) - 60)
    _assert_refused(response, b"Signature has expired", before)


def test_replayed_launch_is_refused(client, lms, linked):
    response, fields = login_and_launch(client, lms, lms.resource_link_claims(sub="once", roles=[ROLE_LEARNER]))
    assert response.status_code == 302
    replay = client.post("/lti/launch/", fields)  # same id_token, same state, same browser
    assert replay.status_code == 400 and b"Invalid Nonce" in replay.content


def test_wrongly_signed_launch(client, lms, linked):
    before = User.objects.count()
    other_key, _ = rsa_key()  # signed with another key under the platform's kid
    response, _ = login_and_launch(client, lms, lms.resource_link_claims(sub="forger", roles=[ROLE_LEARNER]),
                                   sign_with=other_key)
    _assert_refused(response, b"Signature verification failed", before)


def test_wrong_audience(client, lms, linked):
    before = User.objects.count()
    response, _ = login_and_launch(client, lms, lms.resource_link_claims(sub="x", roles=[ROLE_LEARNER]),
                                   aud="another-tool")
    _assert_refused(response, b"No LMS is registered", before)


def test_wrong_deployment(client, lms, linked):
    before = User.objects.count()
    claims = lms.resource_link_claims(sub="x", roles=[ROLE_LEARNER])
    claims["https://purl.imsglobal.org/spec/lti/claim/deployment_id"] = "deployment-unknown"
    response, _ = login_and_launch(client, lms, claims)
    _assert_refused(response, b"Unable to find deployment", before)


def test_unknown_issuer_at_login_and_at_launch(client, lms, linked):
    before = User.objects.count()
    params = lms.login_params(lms.resource_link_claims(sub="x", roles=[ROLE_LEARNER]), tool_launch_url="x")
    response = client.post("/lti/login/", {**params, "iss": "https://unknown.example"})
    _assert_refused(response, b"No LMS is registered with issuer", before)
    response, _ = login_and_launch(client, lms, lms.resource_link_claims(sub="x", roles=[ROLE_LEARNER]),
                                   iss="https://unknown.example")
    _assert_refused(response, b"No LMS is registered with issuer", before)


def test_missing_state_cookie(client, lms, linked):
    before = User.objects.count()
    params = lms.login_params(lms.resource_link_claims(sub="x", roles=[ROLE_LEARNER]),
                              tool_launch_url="http://testserver/lti/launch/")
    response = client.post("/lti/login/", params)
    client.cookies.clear()  # e.g. a browser that blocks the tool's cookies in the LMS iframe
    fields = urlopen_form(response["Location"])
    _assert_refused(client.post("/lti/launch/", fields), b"State not found", before)


def _tampered(id_token: str, **changes) -> str:
    header, body, signature = id_token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    claims.update(changes)
    body = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"{header}.{body}.{signature}"


def test_learner_forging_an_instructor_role_is_refused(client, lms, linked):
    before = User.objects.count()
    params = lms.login_params(lms.resource_link_claims(sub="sneaky", roles=[ROLE_LEARNER]),
                              tool_launch_url="http://testserver/lti/launch/")
    fields = urlopen_form(client.post("/lti/login/", params)["Location"])
    fields["id_token"] = _tampered(fields["id_token"], **{"https://purl.imsglobal.org/spec/lti/claim/roles": [ROLE_INSTRUCTOR]})
    _assert_refused(client.post("/lti/launch/", {**fields, "role": "Instructor"}), b"Signature verification failed", before)


def test_an_institution_instructor_role_does_not_make_a_course_instructor(client, lms, linked):
    claims = lms.resource_link_claims(sub="staffer", roles=[ROLE_LEARNER, ROLE_INSTITUTION_INSTRUCTOR])
    response, _ = login_and_launch(client, lms, claims)
    user = LtiIdentity.objects.get(subject="staffer").user
    assert response.status_code == 302 and not linked.course.instructors.filter(pk=user.pk).exists()
    assert user.role == User.Role.STUDENT and Enrollment.objects.filter(user=user, course=linked.course).exists()


# --- tokens that name someone else (OpenID Connect Core §3.1.3.7) -------------------------------------

@pytest.mark.parametrize("audiences", [["stumper-tool-client", "untrusted-client"], ["untrusted-client"]])
def test_a_token_also_meant_for_other_clients_is_refused(client, lms, linked, audiences):
    before = User.objects.count()
    claims = lms.resource_link_claims(sub="victim", roles=[ROLE_LEARNER])
    response, _ = login_and_launch(client, lms, claims, aud=[lms.client_id, *audiences], azp=lms.client_id)
    _assert_refused(response, b"The token is also meant for other clients (aud)", before)


def test_a_token_issued_to_another_client_is_refused(client, lms, linked):
    before = User.objects.count()
    claims = lms.resource_link_claims(sub="victim", roles=[ROLE_LEARNER])
    response, _ = login_and_launch(client, lms, claims, aud=lms.client_id, azp="untrusted-client")
    _assert_refused(response, b"The token was issued to another client (azp", before)


def test_the_issue_s_token_naming_an_untrusted_client_is_refused(client, lms, linked):
    before = User.objects.count()
    claims = lms.resource_link_claims(sub="victim", roles=[ROLE_LEARNER])
    response, _ = login_and_launch(client, lms, claims, aud=[lms.client_id, "untrusted-client"],
                                   azp="untrusted-client")
    _assert_refused(response, b"The token is also meant for other clients (aud)", before)


def test_a_list_of_our_client_id_alone_and_its_azp_are_accepted(client, lms, linked):
    response, _ = login_and_launch(client, lms, lms.resource_link_claims(sub="fine", roles=[ROLE_LEARNER]),
                                   aud=[lms.client_id], azp=lms.client_id)
    assert response.status_code == 302


# --- what the tool fetches: the key set --------------------------------------------------------------

def _reason(response) -> str:
    """The reason the refusal page gives, as the browser shows it."""
    return unescape(re.search(r'<p class="error" role="alert">(.*?)</p>', response.content.decode(), re.S).group(1))


@pytest.mark.parametrize("path", ["/internal", "/no-such-page"])
def test_a_key_set_that_cannot_be_fetched_is_not_shown_to_the_browser(client, lms, linked, caplog, path):
    from lti.tests.platform_sim import INTERNAL_BODY

    before = User.objects.count()
    type(linked.platform).objects.filter(pk=linked.platform.pk).update(key_set_url=f"{lms.url}{path}")
    response, _ = login_and_launch(client, lms, lms.resource_link_claims(sub="x", roles=[ROLE_LEARNER]))
    _assert_refused(response, b"The launch could not be verified: the LMS&#x27;s key set could not be fetched", before)
    page = response.content.decode()
    assert INTERNAL_BODY not in page and "db_password" not in page and lms.url not in page
    assert lms.internal_hits == (path == "/internal")  # fetched (private addresses allowed here), never shown
    assert _reason(response) == "The launch could not be verified: the LMS's key set could not be fetched"
    assert any(f"{lms.url}{path}" in record.getMessage() for record in caplog.records)  # the detail: in the log


def test_a_closed_port_says_no_more_than_an_open_one(client, lms, linked):
    before = User.objects.count()
    type(linked.platform).objects.filter(pk=linked.platform.pk).update(key_set_url="http://127.0.0.1:9/jwks")
    response, _ = login_and_launch(client, lms, lms.resource_link_claims(sub="x", roles=[ROLE_LEARNER]))
    _assert_refused(response, b"the LMS&#x27;s key set could not be fetched", before)
    assert _reason(response) == "The launch could not be verified: the LMS's key set could not be fetched"


def test_the_key_set_name_is_checked_again_when_it_is_fetched(client, lms, platform, course, settings, dns):
    # Registered while keys.test answered a public address; at the launch it answers the loopback (DNS rebinding).
    from lti.services.registration import platform_update

    settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = False
    dns["keys.test"] = ["93.184.216.34"]
    port = lms.url.rsplit(":", 1)[1]
    platform = platform_update(user=platform.created_by, platform=platform, key_set_url=f"http://keys.test:{port}/jwks",
                               auth_token_url=f"http://keys.test:{port}/token")
    ContextLink.objects.create(platform=platform, context_id=lms.context_id, course=course)
    dns["keys.test"] = ["127.0.0.1"]
    before = User.objects.count()
    response, _ = login_and_launch(client, lms, lms.resource_link_claims(sub="x", roles=[ROLE_LEARNER]))
    _assert_refused(response, b"the LMS&#x27;s key set could not be fetched", before)
    assert dns.asked.count("keys.test") == 3  # two checks at registration, one at the launch
    settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = True  # the same launch path works when the address is allowed
    response, _ = login_and_launch(client, lms, lms.resource_link_claims(sub="x", roles=[ROLE_LEARNER]))
    assert response.status_code == 302


# --- service URLs in the claims must be on the platform's hosts ---------------------------------------

def test_service_urls_on_another_host_are_ignored(client, lms, linked, round_):
    claims = lms.resource_link_claims(sub="s", roles=[ROLE_LEARNER], custom={"stumper_round_id": str(round_.pk)},
                                      lineitem="http://evil.test/ags/lineitems/1")
    claims["https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"]["context_memberships_url"] = \
        "http://169.254.169.254/latest/meta-data/"
    claims["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"]["lineitems"] = "http://evil.test/ags/lineitems"
    response, _ = login_and_launch(client, lms, claims)
    assert response.status_code == 302  # the launch goes on, without those services
    link = ResourceLink.objects.get(context=linked)
    linked.refresh_from_db()
    assert (link.lineitem_url, link.lineitems_url, linked.memberships_url) == ("", "", "")
    claims = lms.resource_link_claims(sub="s", roles=[ROLE_LEARNER], custom={"stumper_round_id": str(round_.pk)})
    login_and_launch(client, lms, claims)  # the LMS's own URLs are kept
    link.refresh_from_db()
    linked.refresh_from_db()
    assert link.lineitem_url.startswith(lms.url) and linked.memberships_url.startswith(lms.url)
