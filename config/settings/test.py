"""Test settings: fast hashing, eager Celery unless a test starts a real worker."""
import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
# Tests load the models they need; the servers and workers they start inherit this too.
os.environ.setdefault("STUMPER_PRELOAD_MODELS", "false")
# No connection pool by default: the browser tests fork their Daphne from the test process, and a
# psycopg pool (its connections and threads) does not survive a fork. tests/test_database_pool.py
# turns it on for real servers started by the tests.
os.environ.setdefault("DB_POOL_MAX_SIZE", "0")

from config.settings.base import *  # noqa: F403
from config.settings.base import CELERY_BROKER_URL, DATABASES, STATIC_ROOT, VAR_DIR, env

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=True)
STUMPER_TEST_MODEL_DIR = VAR_DIR / "test-models"

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not :memory:, so live-server tests and real worker processes share the test DB.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
else:
    # Explicit, because Channels' live server derives the name again in its forked child and
    # would otherwise prefix an already prefixed name (test_test_stumper).
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}"}

if CELERY_BROKER_URL.startswith("filesystem://") and "STUMPER_BROKER_DIR" not in os.environ:
    # Worker tests get a broker folder of their own, never the demo's queue.
    _broker = VAR_DIR / f"test-broker-{os.getpid()}"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker / "out"),
        "data_folder_out": str(_broker / "out"),
        "processed_folder": str(_broker / "processed"),
        "control_folder": str(_broker / "control"),
        "store_processed": False,
    }
# Each test process counts sign-in failures on its own: a shared Redis cache would let one test's
# failed logins lock another test's user out.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The LTI tests' platform is a local HTTP server on 127.0.0.1 (lti/tests/platform_sim.py); tests of the URL
# rules turn these off again.
STUMPER_LTI_ALLOW_HTTP = True
STUMPER_LTI_ALLOW_PRIVATE_URLS = True
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns on every request otherwise
