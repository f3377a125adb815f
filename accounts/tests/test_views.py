
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.services import user_create

User = get_user_model()
PASSWORD = "a-long-test-password-42"


@pytest.mark.django_db
class LoginTests:
    def test_login_page_renders(self, client):
        response = client.get(reverse("accounts:login"))
        assert response.status_code == 200
        assert 'name="csrfmiddlewaretoken"' in response.content.decode()

    def test_login_sends_the_user_to_their_start_page(self, client, course):
        # "home" sends each role on to its own page (tests/test_navigation_roles.py).
        user_create(username="bob", password=PASSWORD)
        response = client.post(reverse("accounts:login"), {"username": "bob", "password": PASSWORD})
        assert response.url == reverse("home")

    def test_wrong_password_is_explained(self, client, db):
        user_create(username="bob", password=PASSWORD)
        response = client.post(reverse("accounts:login"), {"username": "bob", "password": "wrong"})
        assert response.status_code == 200
        assert "correct username and password" in response.content.decode()

    def test_logout_is_post_only(self, client, db):
        user = user_create(username="bob", password=PASSWORD)
        client.force_login(user)
        assert client.get(reverse("accounts:logout")).status_code == 405
        response = client.post(reverse("accounts:logout"))
        assert response.status_code == 302
        assert "_auth_user_id" not in client.session
