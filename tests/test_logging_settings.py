"""Logs go to stderr at LOG_LEVEL, whatever level a library gives its own logger (config/logging.py).

A fresh interpreter per case: the settings configure logging once, at start-up.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.logging import logging_settings

ROOT = Path(__file__).resolve().parent.parent
# bm25s does exactly this at import: logger = logging.getLogger("bm25s"); logger.setLevel(logging.DEBUG)
CODE = """
import logging, django
django.setup()
chatty = logging.getLogger("some_library")
chatty.setLevel(logging.DEBUG)
chatty.debug("debug chatter")
logging.getLogger("stumper.test").info("info record")
print("the output")
"""


def _run(level: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "STUMPER_ENV_FILE": "/dev/null",
           "LOG_LEVEL": level}
    return subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_records_go_to_stderr_and_a_library_set_to_debug_stays_below_the_level():
    result = _run("INFO")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "the output\n"
    assert "INFO stumper.test: info record" in result.stderr
    assert "debug chatter" not in result.stderr


def test_log_level_debug_shows_the_chatter_on_stderr_only():
    result = _run("DEBUG")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "the output\n"
    assert "DEBUG some_library: debug chatter" in result.stderr


def test_an_unknown_log_format_is_refused():
    assert logging_settings(level="WARNING")["handlers"]["console"]["stream"] == "ext://sys.stderr"
    with pytest.raises(ValueError, match='LOG_FORMAT must be "plain" or "json"'):
        logging_settings(log_format="xml")
