"""The admin lists the LTI records and never shows the tool's (encrypted) private key."""
import pytest

from lti.services import keys

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser(db):
    from accounts.models import User

    return User.objects.create_superuser("root", "root@example.edu", "pw-admin-long-enough-1")


@pytest.mark.parametrize("model", ["platform", "ltiidentity", "contextlink", "resourcelink", "gradesync"])
def test_admin_changelists(client, superuser, platform, model):
    client.force_login(superuser)
    assert client.get(f"/admin/lti/{model}/").status_code == 200


def test_tool_keys_are_not_in_the_admin(client, superuser):
    keys.tool_key_active()
    client.force_login(superuser)
    assert client.get("/admin/lti/toolkey/").status_code == 404
