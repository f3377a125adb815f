"""The draft rate limit across real processes: web processes on one Redis share each user's budget.

Two Python processes, each with Django's cache set to the same throwaway Redis (as production
sets it from ``REDIS_URL``), send drafts for one user at the same time through the real
``draft_limiter``: together they get exactly the burst. With Redis stopped, drafts go through.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.faults import ThrowawayRedis

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed")

ROOT = Path(__file__).resolve().parent.parent
WEB_PROCESS = """
import sys
from django.conf import settings
settings.configure(CACHES={"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                       "LOCATION": sys.argv[1]}})
from core.ratelimit import draft_limiter
print(sum(draft_limiter.allow("author:1", rate=0.01, burst=30) for _ in range(int(sys.argv[2]))))
"""


def _web_process(url: str, drafts: int) -> subprocess.Popen:
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    return subprocess.Popen([sys.executable, "-c", WEB_PROCESS, url, str(drafts)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _allowed(processes: list[subprocess.Popen]) -> list[int]:
    results = []
    for process in processes:
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        results.append(int(out.strip()))
    return results


def test_two_web_processes_share_a_users_draft_budget_in_redis():
    redis = ThrowawayRedis()
    redis.start()
    try:
        allowed = _allowed([_web_process(redis.url, 25), _web_process(redis.url, 25)])
        assert sum(allowed) == 30, allowed  # 50 drafts, one budget of 30
        assert _allowed([_web_process(redis.url, 5)]) == [0]  # a third process finds it used up
    finally:
        redis.stop()
    # Redis is down: the limiter lets drafts through instead of cutting authors off.
    assert _allowed([_web_process(redis.url, 3)]) == [3]
