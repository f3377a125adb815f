"""Fixtures of the accounts tests."""
import pytest
from django.core.cache import cache


@pytest.fixture
def fresh_login_counts(settings):
    """Sign-in failures counted from nothing; three lock a username (the address limit out of the way)."""
    settings.STUMPER_LOGIN_MAX_FAILURES = 3
    settings.STUMPER_LOGIN_MAX_FAILURES_PER_ADDRESS = 100
    cache.clear()
    yield
    cache.clear()
