"""What the logs leave out: an expected 403 is one line, model loading draws no progress bars
and prints no load report at INFO (it does at DEBUG), and the folder broker does not warn
"No hostname was supplied". The last two run in a fresh interpreter, as a worker starts."""
import io
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from config.logging import ExpectedErrorFilter

ROOT = Path(__file__).resolve().parent.parent

# A worker process as Celery starts it (its set-up signal), then a model load with missing keys.
LOAD_CODE = """
import sys, django
django.setup()
from celery.signals import celeryd_after_setup
from config.celery import app
celeryd_after_setup.send(sender="worker@test", instance=None, conf=app.conf)
from mlcore.testing import build_tiny_bert
from transformers import AutoModelForMultipleChoice
AutoModelForMultipleChoice.from_pretrained(str(build_tiny_bert(sys.argv[1], with_head=False)))
print("loaded")
"""

BROKER_CODE = """
import django
django.setup()
from config.celery import app
with app.connection_for_write() as connection:
    connection.ensure_connection(max_retries=1)
    print(connection.as_uri())
"""


def _run(code: str, level: str, *args: str, **extra: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "CELERY_BROKER_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.test", STUMPER_ENV_FILE="/dev/null", LOG_LEVEL=level,
               HF_HUB_OFFLINE="1", **extra)
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture
def console_log():
    """The text the settings' console handler writes during the test."""
    [handler] = [h for h in logging.getLogger().handlers if any(isinstance(f, ExpectedErrorFilter) for f in h.filters)]
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


@pytest.mark.django_db
def test_an_expected_403_is_one_line_with_its_reason(client, student, console_log):
    client.force_login(student)
    assert client.get(reverse("inbox:inbox")).status_code == 403
    [forbidden] = [line for line in console_log.getvalue().splitlines() if "Forbidden" in line]
    assert forbidden.endswith(
        "WARNING django.request: Forbidden (Permission denied): /inbox/ (The inbox is the instructors' start page.)")
    assert "Traceback" not in console_log.getvalue()


@pytest.fixture
def every_log_stream():
    """Everything any handler that a ``django.request`` record reaches writes, in one buffer
    (pytest's own capturing handlers aside)."""
    handlers, logger = [], logging.getLogger("django.request")
    while logger is not None:
        handlers += [h for h in logger.handlers
                     if isinstance(h, logging.StreamHandler) and not type(h).__module__.startswith("_pytest")]
        logger = logger.parent if logger.propagate else None
    stream = io.StringIO()
    previous = [(handler, handler.setStream(stream)) for handler in handlers]
    yield stream
    for handler, old in previous:
        handler.setStream(old)


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True])
def test_every_refusal_of_a_page_or_an_api_is_one_line(client, student, every_log_stream, settings, debug):
    # DEBUG (the developer's switch) once added Django's own console handler, which printed each
    # refusal again with its traceback.
    settings.DEBUG = debug
    client.force_login(student)
    refusals = {"/inbox/": 403, "/courses/999999/": 404, "/no-such-page/": 404,
                "/api/lti/platforms/": 403, "/api/evaluation/reports/999999/": 404}
    for path, status in refusals.items():
        assert client.get(path).status_code == status, path
    lines = every_log_stream.getvalue().splitlines()
    assert "Traceback" not in every_log_stream.getvalue()
    for path in refusals:
        assert len([line for line in lines if line.endswith(path) or f"{path} (" in line]) == 1, (path, lines)


@pytest.mark.django_db
def test_an_unexpected_error_keeps_its_traceback(console_log):
    try:
        raise RuntimeError("disk full")
    except RuntimeError:
        logging.getLogger("django.request").exception("Internal Server Error: /x/")
    assert "Traceback" in console_log.getvalue() and "RuntimeError: disk full" in console_log.getvalue()


@pytest.mark.parametrize(("level", "shown"), [("INFO", False), ("DEBUG", True)])
def test_model_loading_bars_and_load_reports_only_at_debug(tmp_path, level, shown):
    result = _run(LOAD_CODE, level, str(tmp_path / "tiny"))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "loaded\n"
    if shown:
        # At DEBUG the bars are there to look into a load. (Whether transformers adds its LOAD REPORT
        # of missing keys is its own business: in a long test session it sometimes does not.)
        assert "Loading weights" in result.stderr and "|██" in result.stderr, result.stderr
    else:
        for noise in ("Loading weights", "LOAD REPORT", "MISSING", "|██"):
            assert noise not in result.stderr, (noise, result.stderr)


def test_the_folder_broker_connects_without_the_hostname_warning(tmp_path):
    result = _run(BROKER_CODE, "INFO", STUMPER_BROKER_DIR=str(tmp_path / "broker"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("filesystem://")
    assert "No hostname was supplied" not in result.stderr
