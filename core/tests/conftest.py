import pytest


@pytest.fixture(autouse=True)
def _empty_cache():
    from django.core.cache import cache

    cache.clear()  # rate-limit counts live in the cache
    yield
    cache.clear()
