"""The Content-Security-Policy holds without inline scripts: the production policy forbids inline
code and eval, no template has an inline script or an ``on…=`` handler, and the pages of other
packages (API docs, admin) have none either. tests/test_e2e_csp.py shows the pages working under it
in Chromium.
"""
import base64
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pylti1p3.deep_link import DeepLink

from tests.test_security_production import documented_environment, python

ROOT = Path(__file__).resolve().parent.parent
APPS_WITH_TEMPLATES = sorted(path.parent for path in ROOT.glob("*/templates") if path.parent.name != "node_modules")
# Scripts that hold data, never run.
DATA_TYPES = {"application/json", "application/ld+json"}


class InlineCode(HTMLParser):
    """Collects inline scripts (with code) and event-handler attributes of an HTML text."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        # (A template's {% translate "…" %} inside an attribute can leave words such as "on" as names.)
        self.found += [f"<{tag} {name}=…>" for name in attributes if re.fullmatch(r"on[a-z]{3,}", name)]
        if any((value or "").strip().lower().startswith("javascript:") for value in attributes.values()):
            self.found.append(f"<{tag}> javascript: URL")
        self._in_script = tag == "script" and "src" not in attributes and attributes.get("type") not in DATA_TYPES

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.found.append(f"inline <script>: {data.strip()[:60]}")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def directives(policy: str) -> dict[str, list[str]]:
    return {name: values for name, *values in (part.split() for part in policy.split(";") if part.strip())}


def test_the_production_policy_allows_no_inline_script_and_no_eval(tmp_path):
    result = python(documented_environment(tmp_path), "import django, json; django.setup(); "
                    "from django.conf import settings; print(json.dumps(settings.STUMPER_CONTENT_SECURITY_POLICY))")
    assert result.returncode == 0, result.stderr
    policy = directives(json.loads(result.stdout))
    scripts = policy["script-src"]
    assert scripts[0] == "'self'" and all(source.startswith("'sha256-") for source in scripts[1:]), scripts
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]
    for values in policy.values():
        assert "*" not in values and "'unsafe-eval'" not in values and "http:" not in values


def test_the_one_allowed_inline_script_is_pylti1p3s_deep_linking_auto_submit(settings):
    # pylti1p3 answers a deep-linking request with a form that a one-line inline script submits to
    # the LMS; its hash (not 'unsafe-inline') lets exactly that line run. A new pylti1p3 that words
    # it differently fails here.
    link = DeepLink.__new__(DeepLink)
    link._deep_link_settings = {"deep_link_return_url": "https://lms.example.edu/return"}
    [script] = re.findall(r"<script[^>]*>(.*?)</script>", link.get_response_form_html("a.jwt"), flags=re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert directives(settings.STUMPER_CONTENT_SECURITY_POLICY)["script-src"] == ["'self'", f"'sha256-{digest}'"]


def test_no_template_has_inline_scripts_or_event_handlers():
    templates = [path for folder in [ROOT / "templates", *(app / "templates" for app in APPS_WITH_TEMPLATES)]
                 for path in folder.rglob("*.html")]
    assert len(templates) > 50
    found = {str(path.relative_to(ROOT)): code for path in templates if (code := inline_code(path.read_text()))}
    assert found == {}


@pytest.mark.django_db
def test_the_pages_of_other_packages_have_no_inline_scripts(client, instructor):
    client.force_login(instructor)
    for path in ("/api/docs/", "/api/redoc/", "/admin/login/", "/accounts/settings/", "/api/courses/"):
        response = client.get(path, HTTP_ACCEPT="text/html")  # the API's browsable page too
        assert response.status_code == 200, path
        assert inline_code(response.content.decode()) == [], path
    # Swagger UI's start-up script comes as a file of its own.
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()
