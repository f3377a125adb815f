"""The grade files of a round placed in an LMS (issue 26 §6): rows carry the ids the launches gave (LIS
person sourcedid, e-mail) so that Canvas and Moodle can match them, the Canvas column is the line item's
label, and a student the LMS gave no ids for is left out and named on the round page."""
import csv
import io

import pytest

from core.registry import gradebook_of
from lti.claims import LIS
from lti.models import ContextLink, LtiIdentity, ResourceLink
from lti.tests.conftest import login_and_launch, return_to_lms
from lti.tests.platform_sim import LTI, ROLE_INSTRUCTOR, ROLE_LEARNER

pytestmark = pytest.mark.django_db


@pytest.fixture
def placed(client, lms, platform, course, round_):
    """The round deep-linked into the LMS course; the LMS's label of its line item."""
    ContextLink.objects.create(platform=platform, context_id=lms.context_id, course=course)
    response, _ = login_and_launch(client, lms, lms.deep_linking_claims(sub="prof", roles=[ROLE_INSTRUCTOR]))
    message = return_to_lms(lms, client.post(response["Location"], {"round": round_.pk, "score_maximum": "10"}))
    (item,) = message["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    client.logout()
    return item


def launch(client, lms, item, sub, **claims):
    message = lms.resource_link_claims(sub=sub, roles=[ROLE_LEARNER], custom=item["custom"])
    message[LTI + "resource_link"]["title"] = item["lineItem"]["label"]  # the LMS names the link as it made it
    message.update(claims)
    login_and_launch(client, lms, message)
    client.logout()
    return LtiIdentity.objects.get(subject=sub)


def download(client, round_, fmt) -> list[list[str]]:
    response = client.get(f"/rounds/{round_.pk}/grades.csv", {"format": fmt})
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_launch_ids_fill_the_lms_files_and_the_column_is_the_line_items_label(client, lms, placed, round_, instructor):
    launch(client, lms, placed, "learner-1", **{LIS: {"person_sourcedid": "2024-0042"}})
    nobody = launch(client, lms, placed, "learner-2", email=None)  # no e-mail, no LIS claim
    client.force_login(instructor)
    canvas = download(client, round_, "canvas")
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", placed["lineItem"]["label"]]
    # ID stays empty: Canvas reads it as its own integer user id, which an LTI subject is not.
    assert canvas[2:] == [["learner-1, User", "", "2024-0042", "learner-1@lms.example", "", "0"]]
    assert download(client, round_, "moodle") == [["Email address", "Grade"], ["learner-1@lms.example", "0"]]
    plain = {row["username"]: row for row in csv.DictReader(io.StringIO(client.get(
        f"/rounds/{round_.pk}/grades.csv", {"format": "csv"}).content.decode()))}
    assert {(row["sis_user_id"], row["lms_user_id"]) for row in plain.values()} == {("2024-0042", "learner-1"),
                                                                                    ("", "learner-2")}
    page = client.get(f"/rounds/{round_.pk}/").content.decode()
    who = f"User learner-2 ({nobody.user.username})"
    assert f"Left out of the Canvas file (no SIS User ID or SIS Login ID): {who}." in page
    assert f"Left out of the Moodle file (no Email address): {who}." in page


def test_every_launch_refreshes_the_ids(client, lms, placed, round_):
    identity = launch(client, lms, placed, "learner-1", **{LIS: {"person_sourcedid": "OLD"}})
    assert (identity.person_sourcedid, identity.email) == ("OLD", "learner-1@lms.example")
    identity = launch(client, lms, placed, "learner-1", email="new@lms.example", **{LIS: {"person_sourcedid": "NEW"}})
    assert (identity.person_sourcedid, identity.email) == ("NEW", "new@lms.example")
    identity = launch(client, lms, placed, "learner-1", **{LIS: "not an object"})
    assert identity.person_sourcedid == ""


def test_without_a_title_from_the_lms_the_column_is_the_label_deep_linking_gave(client, lms, placed, round_):
    student = launch(client, lms, placed, "learner-1").user
    ResourceLink.objects.filter(round=round_).update(title="")
    assert gradebook_of(round_id=round_.pk, user_ids=[student.pk]).lineitem_label == placed["lineItem"]["label"]
    ResourceLink.objects.filter(round=round_).update(lineitem_url="")  # no gradebook column: no label
    assert gradebook_of(round_id=round_.pk, user_ids=[student.pk]).lineitem_label == ""
