"""Deep Linking 2.0: the instructor picks a round; the LMS receives it as an LTI resource link with a line item."""
import pytest

from lti.models import ContextLink, ResourceLink
from lti.tests.conftest import login_and_launch, return_to_lms
from lti.tests.platform_sim import ROLE_INSTRUCTOR, ROLE_LEARNER

pytestmark = pytest.mark.django_db


@pytest.fixture
def linked(platform, lms, course):
    return ContextLink.objects.create(platform=platform, context_id=lms.context_id, course=course)


def test_instructor_picks_a_round_and_the_lms_gets_a_graded_resource_link(client, lms, linked, round_):
    response, _ = login_and_launch(client, lms, lms.deep_linking_claims(sub="prof", roles=[ROLE_INSTRUCTOR]))
    assert response.status_code == 302 and response["Location"].endswith("/deep-link/")
    picker = client.get(response["Location"])
    assert round_.title.encode() in picker.content
    message = return_to_lms(lms, client.post(response["Location"], {"round": round_.pk, "score_maximum": "20"}))
    assert len(lms.deep_link_responses) == 1
    # Deep Linking 2.0 §4.5: the response message and its content item, written out.
    assert message["iss"] == lms.client_id and message["aud"] == [lms.url]
    assert message["https://purl.imsglobal.org/spec/lti/claim/message_type"] == "LtiDeepLinkingResponse"
    assert message["https://purl.imsglobal.org/spec/lti/claim/deployment_id"] == lms.deployment_id
    assert message["https://purl.imsglobal.org/spec/lti-dl/claim/data"] == "opaque-platform-data"
    (item,) = message["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert item == {
        "type": "ltiResourceLink", "title": "Round one", "url": "http://testserver/lti/launch/",
        "custom": {"stumper_round_id": str(round_.pk)},
        "lineItem": {"scoreMaximum": 20.0, "label": "Round one", "resourceId": f"stumper-round-{round_.pk}",
                     "tag": "stumper"},
    }
    # The LMS then launches the new link with the custom parameter: a student lands on the round.
    client.logout()
    claims = lms.resource_link_claims(sub="learner", roles=[ROLE_LEARNER], resource_link_id="new-link",
                                      custom=item["custom"])
    launched, _ = login_and_launch(client, lms, claims)
    assert launched["Location"] == f"/rounds/{round_.pk}/write/"
    assert ResourceLink.objects.get(resource_link_id="new-link").round == round_


def test_a_round_of_another_course_cannot_be_opened_through_a_copied_link(client, lms, linked, other_instructor):
    from collector.services.rounds import round_create
    from courses.services import course_create

    foreign = round_create(course=course_create(owner=other_instructor, name="Other"), name="secret")
    claims = lms.resource_link_claims(sub="learner", roles=[ROLE_LEARNER], custom={"stumper_round_id": str(foreign.pk)})
    launched, _ = login_and_launch(client, lms, claims)
    assert launched["Location"] == "/dashboard/" and ResourceLink.objects.get().round is None


def test_learners_cannot_deep_link(client, lms, linked):
    response, _ = login_and_launch(client, lms, lms.deep_linking_claims(sub="learner", roles=[ROLE_LEARNER]))
    assert response.status_code == 403 and b"Only instructors" in response.content
