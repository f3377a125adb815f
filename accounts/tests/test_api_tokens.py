"""A user creates, replaces and revokes their own API token on the settings page; the key is
shown once, and it signs API calls in until it is revoked."""
import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

from accounts.models import User
from accounts.services import user_create

PASSWORD = "a-long-test-password-42"


def make_user(username: str, role: str = User.Role.STUDENT) -> User:
    return user_create(username=username, password=PASSWORD, role=role)

API = "/api/courses/"


@pytest.mark.django_db
class ApiTokenPageTests:
    def test_create_shows_the_key_once_and_it_works(self, client):
        user = make_user("prof", role=User.Role.INSTRUCTOR)
        client.force_login(user)
        page = client.post(reverse("accounts:api_token_create"), follow=True).content.decode()
        key = Token.objects.get(user=user).key
        assert key in page and "shown only this once" in page
        again = client.get(reverse("accounts:settings")).content.decode()
        assert key not in again and key[:4] in again
        assert client.get(API, HTTP_AUTHORIZATION=f"Token {key}").status_code == 200

    def test_replace_revokes_the_old_key(self, client):
        user = make_user("alice")
        client.force_login(user)
        client.post(reverse("accounts:api_token_create"))
        old = Token.objects.get(user=user).key
        client.post(reverse("accounts:api_token_create"))
        new = Token.objects.get(user=user).key
        assert new != old
        assert client.get(API, HTTP_AUTHORIZATION=f"Token {old}").status_code == 401

    def test_revoke_stops_the_key(self, client):
        user = make_user("cw", role=User.Role.CROWDWORKER)
        client.force_login(user)
        client.post(reverse("accounts:api_token_create"))
        key = Token.objects.get(user=user).key
        page = client.post(reverse("accounts:api_token_revoke"), follow=True).content.decode()
        assert "revoked" in page and "You have no token" in page
        assert not Token.objects.filter(user=user).exists()
        assert client.get(API, HTTP_AUTHORIZATION=f"Token {key}").status_code == 401

    def test_each_user_touches_only_their_own_token(self, client):
        alice, bob = make_user("alice"), make_user("bob")
        bobs = Token.objects.create(user=bob)
        client.force_login(alice)
        client.post(reverse("accounts:api_token_revoke"))
        client.post(reverse("accounts:api_token_create"))
        assert Token.objects.get(user=bob).key == bobs.key
        assert bobs.key not in client.get(reverse("accounts:settings")).content.decode()

    def test_signed_out_and_get_are_refused(self, client):
        assert client.get(reverse("accounts:settings")).url.startswith(reverse("accounts:login"))
        assert client.post(reverse("accounts:api_token_create")).url.startswith(reverse("accounts:login"))
        client.force_login(make_user("alice"))
        assert client.get(reverse("accounts:api_token_create")).status_code == 405
        assert not Token.objects.exists()

    def test_the_navigation_links_the_settings_page(self, client):
        client.force_login(make_user("alice"))
        page = client.get(reverse("accounts:password_change")).content.decode()
        assert f'href="{reverse("accounts:settings")}"' in page
