# Stumper Celery worker (and Celery beat, compose's "beat" service). One image for every queue; the environment picks the queue:
#   WORKER_QUEUES=default | training | inference (comma-separated; all three by default)
#   WORKER_CONCURRENCY (threads, default 2), WORKER_NAME (default "worker")
# Build from the repository root:  docker compose -f docker/compose.yml build
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production \
    STUMPER_VAR_DIR=/app/var \
    NUMBA_CACHE_DIR=/app/var/numba-cache \
    WORKER_QUEUES=default,training,inference \
    WORKER_CONCURRENCY=2 \
    WORKER_NAME=worker

WORKDIR /app

# Same dependency layer as web.Dockerfile: requirements/runtime.lock, no test tools (CPU-only
# torch; a GPU machine installs the CUDA build of the same torch version instead).
COPY requirements/runtime.lock requirements/
RUN pip install --extra-index-url https://download.pytorch.org/whl/cpu -r requirements/runtime.lock

COPY . .
RUN useradd --create-home --uid 10001 stumper \
    && mkdir -p /app/var/media /app/var/models /app/var/numba-cache /app/var/beat \
    && chown -R stumper:stumper /app/var

USER stumper

# Threads, not prefork: one process keeps one copy of each model in memory.
CMD ["sh", "-c", "exec celery -A config worker -l info --pool=threads --concurrency=\"$WORKER_CONCURRENCY\" -Q \"$WORKER_QUEUES\" -n \"$WORKER_NAME@%h\""]
