"""Sign-in rate limit: per username and per address, on /accounts/login/ and /admin/login/."""
import pytest
from django.core.cache import cache
from django.urls import reverse

from accounts.services import user_create

PASSWORD = "a-long-test-password-42"
pytestmark = pytest.mark.usefixtures("fresh_login_counts")


@pytest.fixture
def bob(db):
    return user_create(username="bob", password=PASSWORD)


def _login(client, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(reverse("accounts:login"), {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.django_db
class LoginRateLimitTests:
    def test_after_the_limit_even_the_right_password_is_refused_with_429(self, client, bob):
        for _ in range(3):
            response = _login(client, "bob", "wrong-password")
            assert response.status_code == 200
            assert "Please enter a correct username and password" in response.content.decode()
        response = _login(client, "bob", PASSWORD)
        assert response.status_code == 429
        assert "Too many failed sign-ins" in response.content.decode()
        assert "_auth_user_id" not in client.session

    def test_the_limit_is_per_username_and_case_blind(self, client, bob):
        user_create(username="carol", password=PASSWORD)
        for _ in range(3):
            _login(client, "BOB", "wrong-password")
        assert _login(client, "bob", PASSWORD).status_code == 429
        response = _login(client, "carol", PASSWORD)
        assert response.status_code == 302  # another account from the same address is not blocked

    def test_a_success_before_the_limit_forgives_earlier_failures(self, client, bob):
        for _ in range(2):
            _login(client, "bob", "wrong-password")
        assert _login(client, "bob", PASSWORD).status_code == 302
        client.logout()
        for _ in range(2):
            _login(client, "bob", "wrong-password")
        assert _login(client, "bob", PASSWORD).status_code == 302

    def test_the_block_lifts_when_the_window_ends(self, client, bob):
        for _ in range(3):
            _login(client, "bob", "wrong-password")
        assert _login(client, "bob", PASSWORD).status_code == 429
        cache.clear()  # what the cache's timeout does when STUMPER_LOGIN_WINDOW_SECONDS pass
        assert _login(client, "bob", PASSWORD).status_code == 302

    def test_one_address_trying_many_usernames_is_blocked(self, client, bob, settings):
        settings.STUMPER_LOGIN_MAX_FAILURES, settings.STUMPER_LOGIN_MAX_FAILURES_PER_ADDRESS = 100, 4
        for name in ("u1", "u2", "u3", "u4"):
            _login(client, name, "guess", address="10.9.9.9")
        assert _login(client, "bob", PASSWORD, address="10.9.9.9").status_code == 429
        assert _login(client, "bob", PASSWORD, address="10.9.9.10").status_code == 302

    def test_the_admin_login_counts_the_same_failures(self, client, db):
        user_create(username="root", password=PASSWORD, role="instructor")
        for _ in range(3):
            client.post("/admin/login/", {"username": "root", "password": "nope"}, REMOTE_ADDR="10.0.0.2")
        response = client.post("/admin/login/", {"username": "root", "password": PASSWORD}, REMOTE_ADDR="10.0.0.2")
        assert "Too many failed sign-ins" in response.content.decode()


@pytest.mark.django_db
class LoginLimitMessageTests:
    """The form says how many tries are left before a lock-out, and how long the lock lasts."""

    def test_each_failure_counts_down_the_tries_left(self, client, bob, settings):
        settings.STUMPER_LOGIN_WINDOW_SECONDS = 300
        pages = [_login(client, "bob", "wrong-password").content.decode() for _ in range(3)]
        assert "2 more tries before sign-in is locked for 5 minutes." in pages[0]
        assert "1 more try before sign-in is locked for 5 minutes." in pages[1]
        assert "That was the last try: sign-in is now locked for 5 minutes." in pages[2]

    def test_a_locked_form_says_how_long_is_left(self, client, bob, settings, monkeypatch):
        settings.STUMPER_LOGIN_WINDOW_SECONDS = 600
        for _ in range(3):
            _login(client, "bob", "wrong-password")
        import accounts.login_limits as limits

        later = limits.time.time() + 7 * 60 + 5  # 7 min 5 s into the 10-minute window
        monkeypatch.setattr(limits.time, "time", lambda: later)
        response = _login(client, "bob", PASSWORD)
        assert response.status_code == 429
        assert "Sign-in is locked for 3 minutes more" in response.content.decode()
        assert reverse("accounts:password_reset") in response.content.decode()

    def test_the_address_limit_counts_when_it_is_the_tighter(self, client, bob, settings):
        settings.STUMPER_LOGIN_MAX_FAILURES, settings.STUMPER_LOGIN_MAX_FAILURES_PER_ADDRESS = 10, 2
        _login(client, "u1", "guess", address="10.9.9.9")
        page = _login(client, "u2", "guess", address="10.9.9.9").content.decode()
        assert "That was the last try" in page


@pytest.mark.django_db
class LoginLimitBehindProxiesTests:
    """The per-address limit counts the client's address: X-Forwarded-For only from STUMPER_TRUSTED_PROXIES."""

    @pytest.fixture(autouse=True)
    def _address_limit_of_two(self, settings, fresh_login_counts):
        settings.STUMPER_LOGIN_MAX_FAILURES, settings.STUMPER_LOGIN_MAX_FAILURES_PER_ADDRESS = 100, 2
        settings.STUMPER_TRUSTED_PROXIES = ["10.0.0.0/24"]

    def _login_via(self, client, username: str, password: str, *, peer: str, forwarded_for: str):
        return client.post(reverse("accounts:login"), {"username": username, "password": password},
                           REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded_for)

    def test_a_forged_header_from_an_untrusted_peer_does_not_dodge_the_limit(self, client, bob):
        for i, name in enumerate(("u1", "u2")):  # a new made-up address with every try
            self._login_via(client, name, "guess", peer="203.0.113.7", forwarded_for=f"198.51.100.{i}")
        response = self._login_via(client, "bob", PASSWORD, peer="203.0.113.7", forwarded_for="198.51.100.99")
        assert response.status_code == 429

    def test_a_trusted_proxy_passes_the_client_address_on(self, client, bob):
        for name in ("u1", "u2"):
            self._login_via(client, name, "guess", peer="10.0.0.5", forwarded_for="203.0.113.7")
        # The same client is blocked; another client behind the same proxy is not.
        assert self._login_via(client, "bob", PASSWORD, peer="10.0.0.5", forwarded_for="203.0.113.7").status_code == 429
        assert self._login_via(client, "bob", PASSWORD, peer="10.0.0.5", forwarded_for="203.0.113.8").status_code == 302

    def test_entries_the_client_wrote_before_the_proxy_are_ignored(self, client, bob):
        # The proxy appends the peer it saw; whatever the client put in front of it is not read.
        for i, name in enumerate(("u1", "u2")):
            self._login_via(client, name, "guess", peer="10.0.0.5", forwarded_for=f"198.51.100.{i}, 203.0.113.7")
        response = self._login_via(client, "bob", PASSWORD, peer="10.0.0.5", forwarded_for="198.51.100.99, 203.0.113.7")
        assert response.status_code == 429
