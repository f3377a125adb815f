# Stumper web server: Django + Channels under daphne (HTTP and websockets on one port).
# Build from the repository root:  docker compose -f docker/compose.yml build
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production \
    STUMPER_VAR_DIR=/app/var \
    NUMBA_CACHE_DIR=/app/var/numba-cache

WORKDIR /app

# Dependencies first so that code changes reuse this layer: the product's pinned lock only, no
# test, lint or docs tools (those are requirements/dev.lock). The CPU index keeps torch small
# (PyPI's default torch wheel is a CUDA build of several GB).
COPY requirements/runtime.lock requirements/
RUN pip install --extra-index-url https://download.pytorch.org/whl/cpu -r requirements/runtime.lock

COPY . .
# Settings demand SECRET_KEY and ALLOWED_HOSTS even for collectstatic; these never reach runtime.
RUN SECRET_KEY=collectstatic-only ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput -v 0 \
    && useradd --create-home --uid 10001 stumper \
    && mkdir -p /app/var/media /app/var/models /app/var/numba-cache \
    && chown -R stumper:stumper /app/var

USER stumper
EXPOSE 8000

HEALTHCHECK --interval=10s --timeout=10s --start-period=60s --retries=12 \
    CMD python -c "import http.client,sys; c=http.client.HTTPConnection('127.0.0.1',8000,timeout=5); c.request('GET','/healthz/'); sys.exit(c.getresponse().status!=200)"

# Migrations are a separate one-shot step (compose's "migrate" service), so that several web
# replicas never race to migrate. No --proxy-headers: daphne would believe X-Forwarded-For from
# anyone. The client's address comes from the proxies named in STUMPER_TRUSTED_PROXIES
# (core/proxies.py), the scheme from X-Forwarded-Proto (SECURE_PROXY_SSL_HEADER, production.py).
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "config.asgi:application"]
