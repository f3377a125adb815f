"""Django's password-reset flow with our pages: ask by email, follow the emailed link once,
sign in with the new password; and changing one's password from the settings page."""
import re

import pytest
from django.core import mail
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import user_create
from accounts.tokens import api_token_create

PASSWORD = "a-long-test-password-42"
NEW_PASSWORD = "another-long-password-77"


def reset_link(message) -> str:
    return re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/)", message.body).group(1)


@pytest.mark.django_db
class PasswordResetTests:
    def test_the_sign_in_page_links_the_reset(self, client):
        assert reverse("accounts:password_reset") in client.get(reverse("accounts:login")).content.decode()

    def test_full_flow_sets_a_new_password_and_the_link_works_once(self, client):
        user_create(username="bob", password=PASSWORD, email="bob@example.edu")
        response = client.post(reverse("accounts:password_reset"), {"email": "bob@example.edu"}, follow=True)
        assert "Check your email" in response.content.decode()
        assert len(mail.outbox) == 1 and mail.outbox[0].to == ["bob@example.edu"]
        assert "Your username is bob" in mail.outbox[0].body
        link = reset_link(mail.outbox[0])
        form_page = client.get(link, follow=True)
        assert "Set a new password" in form_page.content.decode()
        done = client.post(form_page.redirect_chain[-1][0],
                           {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}, follow=True)
        assert "Your password is changed" in done.content.decode()
        assert client.login(username="bob", password=NEW_PASSWORD)
        client.logout()
        assert "This link no longer works" in client.get(link, follow=True).content.decode()

    def test_an_unknown_address_gets_the_same_answer_and_no_email(self, client):
        response = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.edu"}, follow=True)
        assert "Check your email" in response.content.decode()
        assert mail.outbox == []

    def test_a_weak_new_password_is_refused_with_the_reason(self, client):
        user_create(username="bob", password=PASSWORD, email="bob@example.edu")
        client.post(reverse("accounts:password_reset"), {"email": "bob@example.edu"})
        form_url = client.get(reset_link(mail.outbox[0]), follow=True).redirect_chain[-1][0]
        page = client.post(form_url, {"new_password1": "123", "new_password2": "123"}).content.decode()
        assert "too short" in page
        assert User.objects.get(username="bob").check_password(PASSWORD)

    def test_change_password_from_settings(self, client):
        user = user_create(username="bob", password=PASSWORD)
        client.force_login(user)
        assert reverse("accounts:password_change") in client.get(reverse("accounts:settings")).content.decode()
        response = client.post(reverse("accounts:password_change"), {
            "old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}, follow=True)
        assert response.redirect_chain[-1][0] == reverse("accounts:settings")
        assert "Your password is changed" in response.content.decode()
        user.refresh_from_db()
        assert user.check_password(NEW_PASSWORD)


@pytest.mark.django_db
class PasswordResetRevokesTokensTests:
    """A reset by emailed link is the compromise case: the API token goes too; a change keeps it."""

    def _reset(self, client, email: str) -> None:
        client.post(reverse("accounts:password_reset"), {"email": email})
        form_url = client.get(reset_link(mail.outbox[-1]), follow=True).redirect_chain[-1][0]
        done = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}, follow=True)
        assert "Your password is changed" in done.content.decode()

    def test_a_reset_revokes_the_api_token(self, client):
        user = user_create(username="bob", password=PASSWORD, email="bob@example.edu")
        key = api_token_create(user=user).key
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert api.get("/api/courses/").status_code == 200
        self._reset(client, "bob@example.edu")
        assert not Token.objects.filter(user=user).exists()
        assert api.get("/api/courses/").status_code == 401
        assert client.login(username="bob", password=NEW_PASSWORD)

    def test_a_refused_new_password_keeps_the_token(self, client):
        user = user_create(username="bob", password=PASSWORD, email="bob@example.edu")
        api_token_create(user=user)
        client.post(reverse("accounts:password_reset"), {"email": "bob@example.edu"})
        form_url = client.get(reset_link(mail.outbox[0]), follow=True).redirect_chain[-1][0]
        client.post(form_url, {"new_password1": "123", "new_password2": "123"})
        assert Token.objects.filter(user=user).exists()

    def test_changing_a_known_password_keeps_the_token(self, client):
        user = user_create(username="bob", password=PASSWORD)
        api_token_create(user=user)
        client.force_login(user)
        client.post(reverse("accounts:password_change"), {
            "old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
        assert Token.objects.filter(user=user).exists()

    def test_the_token_page_says_a_reset_revokes_it(self, client):
        client.force_login(user_create(username="bob", password=PASSWORD))
        page = " ".join(client.get(reverse("accounts:settings")).content.decode().split())
        assert "Resetting your password with an emailed link (“Forgot your password?”) revokes your token too" in page
