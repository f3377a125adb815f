# Stumper Celery worker: computes pending predictions (and, later, fine-tuning jobs).
# Build from the repository root:  docker compose -f docker/compose.yml build
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production \
    STUMPER_VAR_DIR=/app/var

WORKDIR /app

# Same dependency layer as web.Dockerfile (CPU-only torch).
COPY requirements.txt .
RUN pip install --extra-index-url https://download.pytorch.org/whl/cpu -r requirements.txt

COPY . .
RUN useradd --create-home --uid 10001 stumper \
    && mkdir -p /app/var/media /app/var/models \
    && chown -R stumper:stumper /app/var

USER stumper

# Threads, not prefork: one process keeps one copy of each model in memory.
CMD ["celery", "-A", "config", "worker", "-l", "info", "--pool=threads", "--concurrency=2", "-Q", "default"]
