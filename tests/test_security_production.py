"""Production settings: `check --deploy` passes with the documented environment, start-up is
refused without SECRET_KEY or ALLOWED_HOSTS, static files are served hashed and cached, logs
are JSON lines on stderr with a request id, and the health check reports the database.

Each production check runs in a subprocess: production settings must be imported fresh, with
exactly the environment an operator would give them.
"""
import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent
ENV_EXAMPLE = ROOT / "docker" / "env.example"


def documented_environment(tmp_path: Path, **overrides: str) -> dict[str, str]:
    """docker/env.example's active lines, as an operator would fill them in, plus overrides."""
    env = {key: value for key, value in os.environ.items() if key in ("PATH", "HOME", "LANG", "HF_HUB_OFFLINE")}
    for line in ENV_EXAMPLE.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            env[key.strip()] = value.strip()
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50), STUMPER_ENV_FILE="/dev/null", STUMPER_VAR_DIR=str(tmp_path / "var"),
        # The example points at the compose network's hosts; nothing here connects to them.
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    env.update(overrides)
    return env


def manage(env: dict[str, str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


def collected_environment(tmp_path: Path) -> dict[str, str]:
    """The documented environment after `collectstatic`, which production pages need."""
    env = documented_environment(tmp_path, STATIC_ROOT=str(tmp_path / "static"))
    result = manage(env, "collectstatic", "--noinput", "-v", "0")
    assert result.returncode == 0, result.stderr
    return env


def python(env: dict[str, str], code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_check_deploy_passes_with_the_documented_environment(tmp_path):
    env = documented_environment(tmp_path)
    assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    result = manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_fails_with_the_placeholder_secret_key(tmp_path):
    # Proves the check above is a real gate: the example's placeholder must be replaced.
    env = documented_environment(tmp_path, SECRET_KEY="change-me-to-a-long-random-string")
    result = manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode != 0
    assert "security.W009" in result.stderr + result.stdout


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS"])
def test_production_refuses_to_start_without(missing, tmp_path):
    env = documented_environment(tmp_path)
    del env[missing]
    result = manage(env, "check")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert f"Set the {missing} environment variable" in result.stderr


def test_static_files_are_served_hashed_with_long_cache_headers(tmp_path):
    env = collected_environment(tmp_path)
    code = """
import django, json
django.setup()
from django.templatetags.static import static
from django.test import Client
url = static("css/stumper.css")
client = Client()
asset = client.get(url, secure=True, HTTP_HOST="localhost")
page = client.get("/accounts/login/", secure=True, HTTP_HOST="localhost")
print(json.dumps({"url": url, "status": asset.status_code, "cache": asset.get("Cache-Control", ""),
                  "page": page.status_code, "linked": url in page.content.decode()}))
"""
    result = python(env, code)
    assert result.returncode == 0, result.stderr
    served = json.loads(result.stdout.strip().splitlines()[-1])
    assert served["url"] != "/static/css/stumper.css"  # content-hashed name from the manifest
    assert served["status"] == 200
    assert "max-age=315360000" in served["cache"] and "immutable" in served["cache"]
    assert served["page"] == 200 and served["linked"]


def test_production_redirects_plain_http_but_not_the_health_check(tmp_path):
    code = """
import django, json
django.setup()
from django.test import Client
client = Client()
print(json.dumps({"page": client.get("/accounts/login/", HTTP_HOST="localhost").status_code,
                  "health": client.get("/healthz/", HTTP_HOST="127.0.0.1").status_code}))
"""
    env = documented_environment(tmp_path)
    assert manage(env, "migrate", "--noinput", "-v", "0").returncode == 0
    result = python(env, code)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"page": 301, "health": 200}


def test_production_logs_are_json_lines_with_the_request_id(tmp_path):
    code = """
import django, logging
django.setup()
from django.test import Client
logging.getLogger("stumper.test").warning("outside a request")
Client().get("/no-such-page/", secure=True, HTTP_HOST="localhost", HTTP_X_REQUEST_ID="req-42")
"""
    result = python(collected_environment(tmp_path), code)
    assert result.returncode == 0, result.stderr
    # Logs are on stderr (stdout is the program's output); other stderr lines, if any, are not records.
    records = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    outside = next(r for r in records if r["message"] == "outside a request")
    assert outside["level"] == "WARNING" and outside["logger"] == "stumper.test" and outside["request_id"] == "-"
    assert "time" in outside
    not_found = next(r for r in records if r["logger"] == "django.request")
    assert not_found["request_id"] == "req-42"
    assert "Not Found" in not_found["message"]


@pytest.mark.django_db
class RequestIdTests:
    def test_every_response_carries_a_request_id(self, client: Client):
        first, second = client.get("/healthz/"), client.get("/healthz/")
        assert len(first["X-Request-ID"]) == 32 and first["X-Request-ID"] != second["X-Request-ID"]

    def test_a_sane_incoming_id_is_kept_and_anything_else_replaced(self, client: Client):
        assert client.get("/healthz/", HTTP_X_REQUEST_ID="lb-abc.123")["X-Request-ID"] == "lb-abc.123"
        forged = client.get("/healthz/", HTTP_X_REQUEST_ID='x" injected\n{"level": "CRITICAL"}')["X-Request-ID"]
        assert len(forged) == 32 and "injected" not in forged


@pytest.mark.django_db
def test_health_check_reports_the_database(client: Client):
    response = client.get("/healthz/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_an_unexpected_error_shows_a_friendly_page_without_a_traceback(rf):
    # What a browser sees with DEBUG=false (production, and the .env scripts/start.sh writes).
    from django.views.defaults import server_error

    response = server_error(rf.get("/anything/"))
    page = response.content.decode()
    assert response.status_code == 500 and "<h1>Something went wrong</h1>" in page
    assert "Traceback" not in page and "/static/css/stumper.css" in page
