"""The database settings' one rule for connection pooling (PostgreSQL only).

Under a full classroom every ASGI worker thread, inference thread and Celery thread used to hold a
connection of its own (``CONN_MAX_AGE`` 0, no pool), and 200 authors exhausted PostgreSQL's 100
connections (issue 28 §5). Django's built-in psycopg pool bounds them per process: a thread that
finds every connection busy waits up to ``timeout`` seconds instead of opening one more.
Total connections = processes x ``max_size`` (web processes + worker); keep it under the server's
``max_connections``, or put PgBouncer in front for larger set-ups (docs/production.md).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured

POSTGRESQL_ENGINE = "django.db.backends.postgresql"


def pooled(database: dict[str, Any], *, max_size: int, min_size: int, timeout: float) -> dict[str, Any]:
    """``database`` (a ``DATABASES`` entry) with Django's psycopg pool when ``max_size`` > 0.

    SQLite and ``max_size`` 0 are returned unchanged. A pool keeps its connections itself, so
    Django's persistent connections (``CONN_MAX_AGE`` > 0) cannot be combined with it.
    """
    if database["ENGINE"] != POSTGRESQL_ENGINE or max_size <= 0:
        return database
    if not 0 <= min_size <= max_size:
        raise ImproperlyConfigured(f"DB_POOL_MIN_SIZE must be between 0 and DB_POOL_MAX_SIZE ({max_size}), not {min_size}.")
    if timeout <= 0:
        raise ImproperlyConfigured(f"DB_POOL_TIMEOUT must be a positive number of seconds, not {timeout}.")
    if database.get("CONN_MAX_AGE"):
        raise ImproperlyConfigured(
            "CONN_MAX_AGE must be 0 while the connection pool is on (DB_POOL_MAX_SIZE > 0): "
            "the pool keeps connections itself. Set DB_POOL_MAX_SIZE=0 to use persistent connections instead."
        )
    options = dict(database.get("OPTIONS", {}))
    options["pool"] = {"min_size": min_size, "max_size": max_size, "timeout": timeout}
    return {**database, "OPTIONS": options}
