"""Fixtures of the cross-app tests (the shared ones are in the root conftest.py)."""
import pytest
from celery import current_app


@pytest.fixture
def real_broker():
    """Send tasks to the broker instead of running them in this process (for a real worker to take)."""
    previous = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = False
    yield
    current_app.conf.task_always_eager = previous
