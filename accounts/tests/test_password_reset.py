"""Django's password-reset flow with our pages: ask by email, follow the emailed link once,
sign in with the new password; and changing one's password from the settings page."""
import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from accounts.services import user_create

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
