"""Production settings: PostgreSQL + Redis expected; HTTPS behind a proxy; JSON logs.

``manage.py check --deploy --fail-level WARNING`` passes with the environment documented in
docker/env.example (tests/test_security_production.py checks it). Like base.py, these settings
refuse to start without ``SECRET_KEY``; they also demand ``ALLOWED_HOSTS``, because the local
default (localhost only) would make a real server answer every request with 400.
"""
from config.settings.base import *  # noqa: F403
from config.settings.base import LOGGING, env

DEBUG = False
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")  # no default: ImproperlyConfigured names the variable

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
# Health checks of the load balancer and of compose come over plain HTTP from inside.
SECURE_REDIRECT_EXEMPT = [r"^healthz/$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True

# Hashed, compressed static files served by whitenoise from STATIC_ROOT (collectstatic first):
# far-future cache headers are safe because a changed file gets a new name.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# One JSON object per line on stderr, for the log collector of the platform.
LOGGING["handlers"]["console"]["formatter"] = env.str("LOG_FORMAT", default="json")
# Celery would otherwise replace the handlers above with its own plain-text ones in workers.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
