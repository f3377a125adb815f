"""An LMS registration belongs to the account that made it: only that account (or a staff superuser) sees,
changes or removes it, by the API, the settings page and the admin alike; another account registering the same
issuer + client id gets 409 with words that say nothing about the owner, and nothing changes. The URL rules
(lti/outbound.py) apply at registration on every way in."""
import pytest
from django.contrib.auth.models import Permission

from accounts.models import User
from lti.models import Platform
from lti.services.registration import PLATFORM_TAKEN

pytestmark = pytest.mark.django_db

API = "/api/lti/platforms/"


def _attack(lms) -> dict:
    """The victim's issuer + client id with the attacker's key set and auth URLs."""
    return {**lms.registration(), "name": "Mine now", "key_set_url": "https://attacker.example/jwks",
            "auth_login_url": "https://attacker.example/auth", "auth_token_url": "https://attacker.example/token"}


def _unchanged(platform: Platform) -> None:
    stored = Platform.objects.get(pk=platform.pk)
    assert (stored.name, stored.key_set_url, stored.auth_login_url, stored.auth_token_url, stored.created_by_id) == (
        platform.name, platform.key_set_url, platform.auth_login_url, platform.auth_token_url, platform.created_by_id)


@pytest.fixture
def superuser(db):
    return User.objects.create_superuser("root", "root@example.edu", "pw-admin-long-enough-1")


# --- the API -----------------------------------------------------------------------------------------

def test_another_account_cannot_take_over_a_registration_by_api(client, platform, lms, instructor, other_instructor):
    client.force_login(other_instructor)
    response = client.post(f"{API}register/", _attack(lms), content_type="application/json")
    assert response.status_code == 409 and response.json() == {"detail": PLATFORM_TAKEN}
    for revealing in filter(None, (instructor.username, instructor.email, instructor.get_full_name(), platform.name)):
        assert revealing not in response.content.decode()
    _unchanged(platform)


def test_the_owner_may_register_again_to_update(client, platform, lms, instructor):
    client.force_login(instructor)
    changed = {**lms.registration(), "deployment_ids": ["deployment-1", "deployment-2"]}
    assert client.post(f"{API}register/", changed, content_type="application/json").status_code == 201
    assert Platform.objects.get().deployment_ids == ["deployment-1", "deployment-2"]


def test_the_list_shows_your_own_registrations_only(client, platform, instructor, other_instructor):
    client.force_login(other_instructor)
    assert client.get(API).json() == []
    client.force_login(instructor)
    assert [p["id"] for p in client.get(API).json()] == [platform.pk]


def test_only_the_owner_changes_or_removes_a_registration_by_api(client, platform, instructor, other_instructor):
    client.force_login(other_instructor)
    change = {"key_set_url": "https://attacker.example/jwks"}
    assert client.post(f"{API}{platform.pk}/update/", change, content_type="application/json").status_code == 404
    assert client.post(f"{API}{platform.pk}/delete/").status_code == 404
    assert client.post(f"{API}{platform.pk + 1000}/delete/").status_code == 404  # the same as for a missing one
    _unchanged(platform)
    client.force_login(instructor)
    response = client.post(f"{API}{platform.pk}/update/", {"name": "Our Moodle"}, content_type="application/json")
    assert response.status_code == 200 and response.json()["name"] == "Our Moodle"
    assert client.post(f"{API}{platform.pk}/delete/").status_code == 204
    assert not Platform.objects.exists()


def test_a_staff_superuser_may_change_anyone_s_registration(client, platform, superuser):
    client.force_login(superuser)
    response = client.post(f"{API}{platform.pk}/update/", {"name": "Checked"}, content_type="application/json")
    assert response.status_code == 200 and Platform.objects.get().created_by == platform.created_by


def test_registration_urls_follow_the_fetch_rules_by_api(client, instructor, lms, settings):
    settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = False
    client.force_login(instructor)
    response = client.post(f"{API}register/", lms.registration(), content_type="application/json")
    assert response.status_code == 400 and not Platform.objects.exists()
    errors = response.json()
    assert set(errors) == {"key_set_url", "auth_token_url"}  # what the server fetches; the browser's URLs may be local
    assert "loopback, private, link-local, multicast or reserved" in errors["key_set_url"][0]
    settings.STUMPER_LTI_ALLOW_HTTP = False
    response = client.post(f"{API}register/", lms.registration(), content_type="application/json")
    assert response.json()["issuer"] == ["Use an https:// URL."]


# --- the settings page -----------------------------------------------------------------------------

def test_another_account_cannot_take_over_a_registration_on_the_page(client, platform, lms, instructor,
                                                                     other_instructor):
    client.force_login(other_instructor)
    page = client.post("/lti/platforms/", {**_attack(lms), "deployment_ids": "deployment-1"})
    assert page.status_code == 200 and page.context["form"].non_field_errors() == [PLATFORM_TAKEN]
    _unchanged(platform)
    assert f'data-platform="{platform.pk}"' not in client.get("/lti/platforms/").content.decode()


def test_only_the_owner_edits_or_removes_on_the_page(client, platform, instructor, other_instructor):
    client.force_login(other_instructor)
    edit, remove = f"/lti/platforms/{platform.pk}/edit/", f"/lti/platforms/{platform.pk}/delete/"
    assert client.get(edit).status_code == 404
    assert client.post(edit, {"name": "x", "deployment_ids": "d", "auth_login_url": "https://a.example/auth",
                              "auth_token_url": "https://a.example/token",
                              "key_set_url": "https://a.example/jwks"}).status_code == 404
    assert client.post(remove).status_code == 404
    _unchanged(platform)
    client.force_login(instructor)
    listing = client.get("/lti/platforms/").content.decode()
    assert f'data-platform="{platform.pk}"' in listing and edit in listing
    form = client.get(edit)
    assert form.status_code == 200 and platform.key_set_url in form.content.decode()
    saved = client.post(edit, {"name": "Our LMS", "deployment_ids": "deployment-1 deployment-9",
                               "auth_login_url": platform.auth_login_url, "auth_token_url": platform.auth_token_url,
                               "key_set_url": platform.key_set_url})
    assert saved.status_code == 302
    assert Platform.objects.get().deployment_ids == ["deployment-1", "deployment-9"]
    assert client.post(remove)["Location"] == "/lti/platforms/" and not Platform.objects.exists()


def test_registration_urls_follow_the_fetch_rules_on_the_page(client, instructor, lms, settings):
    settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = False
    client.force_login(instructor)
    page = client.post("/lti/platforms/", {**lms.registration(), "deployment_ids": "deployment-1"})
    assert page.status_code == 200 and not Platform.objects.exists()
    assert "Stumper will not fetch this URL" in page.context["form"].errors["key_set_url"][0]


# --- the admin ---------------------------------------------------------------------------------------

@pytest.fixture
def staff_owner(other_instructor):
    """A staff member (not a superuser) who may manage LTI registrations in the admin."""
    other_instructor.is_staff = True
    other_instructor.save()
    other_instructor.user_permissions.set(Permission.objects.filter(content_type__app_label="lti",
                                                                    content_type__model="platform"))
    return other_instructor


def test_the_admin_shows_a_staff_member_their_own_registrations_only(client, platform, staff_owner, superuser):
    client.force_login(staff_owner)
    assert platform.name not in client.get("/admin/lti/platform/").content.decode()
    change = client.get(f"/admin/lti/platform/{platform.pk}/change/")
    assert change.status_code == 302 and change["Location"] == "/admin/"  # "does not exist", as for any id
    assert client.post(f"/admin/lti/platform/{platform.pk}/delete/", {"post": "yes"}).status_code == 302
    _unchanged(platform)
    client.force_login(superuser)
    assert platform.name in client.get("/admin/lti/platform/").content.decode()
    assert client.get(f"/admin/lti/platform/{platform.pk}/change/").status_code == 200


def test_a_registration_added_in_the_admin_is_its_maker_s_and_follows_the_url_rules(client, staff_owner, lms,
                                                                                     settings):
    client.force_login(staff_owner)
    form = {**lms.registration(), "deployment_ids": '["deployment-1"]', "frame_origins": "[]", "auth_audience": ""}
    settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = False
    refused = client.post("/admin/lti/platform/add/", form)
    assert refused.status_code == 200 and not Platform.objects.exists()
    assert "loopback, private" in str(refused.context["adminform"].form.errors["key_set_url"])
    settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = True
    assert client.post("/admin/lti/platform/add/", form).status_code == 302
    assert Platform.objects.get().created_by == staff_owner
