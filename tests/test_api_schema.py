"""The OpenAPI schema at /api/schema/ describes every API endpoint, the docs pages render, and
schemathesis, generating requests from that schema against the real Django app, provokes no
server error on any operation.

Requests are token-authenticated as the course's instructor and, in further runs, as its
student and as a crowdworker, in the authorisation matrix's world (``tests/authz_world.py``): a
course with an open round (tiny real model), a question, scoring run, training job and
evaluation report, and an annotation project with sessions, paragraphs, span questions and a
flag, so small generated ids often hit real objects. Examples per operation are bounded
(``MAX_EXAMPLES``) and derandomized, so the run is the same on every machine and takes about a
minute.
"""
from collections import Counter

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from rest_framework.views import APIView
from schemathesis.checks import not_a_server_error

from collector.services.questions import question_submit
from collector.tests.factories import question_data
from tests.authz_world import World

MAX_EXAMPLES = 25


@pytest.fixture(params=["instructor", "student", "crowd"])
def token(request, instructor, student, other_instructor, crowdworker, open_round) -> str:
    """A token of the course's instructor and project owner (manager operations), of its student
    (authoring) or of the crowdworker (span annotation)."""
    world = World(open_round, student, instructor, other_instructor, crowdworker)
    question_submit(user=student, round_id=open_round.pk, **question_data(prompt="The ice melted. It"))
    return Token.objects.create(user=world.users[request.param]).key


def _fuzz(operation, token: str, statuses: Counter) -> list[str]:
    """Run one operation's generated cases; the server errors found, one line each."""
    failures: list[str] = []

    @hypothesis_settings(
        max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None,
        suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate],
    )
    @given(case=operation.as_strategy())
    def run(case) -> None:
        response = case.call(headers={"Authorization": f"Token {token}"})
        statuses[response.status_code] += 1
        try:
            case.validate_response(response, checks=[not_a_server_error])
        except Exception as error:  # a check failure: record it and keep fuzzing the others
            failures.append(f"{operation.label}: {response.status_code} for {case.path_parameters} "
                            f"{case.query} {str(case.body)[:200]}: {str(error).splitlines()[0]}")

    run()
    return failures


@pytest.fixture
def wsgi_app():
    """The real WSGI app, minus closing the DB connection after each request (as Django's test
    Client does): the test's transaction must survive the requests."""
    from config.wsgi import application

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield application
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


# Not schemathesis' pytest plugin (schemathesis.pytest.from_fixture): it does not run under
# pytest 9. The same generation and check, driven per operation from one test.
@pytest.mark.django_db
def test_no_operation_answers_with_a_server_error(token, wsgi_app):
    schema = schemathesis.openapi.from_wsgi("/api/schema/", wsgi_app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 6
    statuses: Counter = Counter()
    failures = [failure for operation in operations for failure in _fuzz(operation, token, statuses)]
    assert not failures, "server errors:\n" + "\n".join(failures)
    # The run reached the views, not only the authentication: valid requests got through too.
    assert sum(n for code, n in statuses.items() if code < 300) >= len(operations) // 2, statuses
    assert statuses[401] == 0, statuses
    print(f"schemathesis: {len(operations)} operations, responses by status {dict(sorted(statuses.items()))}")


def _api_routes(resolver=None, prefix: str = "") -> list[tuple[str, type]]:
    """(route, view class) of every DRF view under /api/ in the URLconf."""
    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found += _api_routes(pattern, route)
        elif isinstance(pattern, URLPattern):
            view = getattr(pattern.callback, "view_class", None) or getattr(pattern.callback, "cls", None)
            if route.startswith("api/") and view is not None and issubclass(view, APIView):
                found.append((route, view))
    return found


@pytest.mark.django_db
def test_every_api_view_is_in_the_schema_with_typed_bodies(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    document = response.json()
    described = set(document["paths"])
    views = [(route, view) for route, view in _api_routes() if not view.__module__.startswith("drf_spectacular")]
    assert views, "no API views found"
    for route, view in views:
        path = "/" + route.replace("<int:", "{").replace("<slug:", "{").replace("<str:", "{").replace(">", "}")
        assert path in described, f"{view.__name__} ({path}) is missing from the schema"
        for method, operation in document["paths"][path].items():
            if method == "post" and hasattr(view, "InputSerializer"):
                assert "requestBody" in operation, f"{view.__name__}: request body not documented"
            assert "tokenAuth" in str(operation.get("security")), f"{view.__name__}: token auth not documented"


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["/api/docs/", "/api/redoc/"])
def test_browsable_docs_render_without_a_cdn(client, page):
    response = client.get(page)
    assert response.status_code == 200
    html = response.content.decode()
    # Swagger UI's split view loads its start-up script as a file (no inline script under the CSP).
    script = client.get(page, {"script": ""}).content.decode() if page == "/api/docs/" else ""
    assert "/api/schema/" in html + script
    assert "<script>" not in html  # every script is a file the policy allows
    assert "cdn.jsdelivr" not in html and "unpkg.com" not in html  # served from drf-spectacular-sidecar
    assert "fonts.googleapis" not in html and "fonts.gstatic" not in html  # system fonts (templates/drf_spectacular)
