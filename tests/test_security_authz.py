"""Authorisation matrix: every URL, API endpoint and websocket route, for every role.

Routes are enumerated from the URL resolver and from ``config.routing``; each must have a row in
``HTTP_MATRIX`` / ``WS_MATRIX`` with the outcome expected for each role, and a route without a
row fails the test (its observed row is printed, ready to be checked and pasted). Roles:

- ``anon``: not signed in
- ``student``: enrolled in course A; ``other_student``: enrolled in course B only
- ``crowd``: a crowdworker (in no course)
- ``instructor``: owns course A (and the annotation project); ``other_instructor``: owns course B

Every object in a URL belongs to course A (or to A's instructor). HTML routes are requested with
the session cookie, /api/ routes with ``Authorization: Token``. POST-only routes get an empty
body: an allowed role must get past the access check (a form or field error, a redirect back
with a message) and a refused one must not. Outcomes are the status codes, with ``login`` for
"redirected to the sign-in page" and ``redirect`` for any other redirect.
"""
import asyncio
import contextlib
import re
from dataclasses import dataclass

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import get_messages
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.authtoken.models import Token

from collector import services
from collector.quality_models import Appeal
from collector.tests.factories import make_user, question_data

ROLES = ("anon", "student", "other_student", "crowd", "instructor", "other_instructor")
# Redirects: to a sign-in page; with an error message (the view refused and said why); other.
LOGIN, REFUSED, REDIRECT = "login", "refused", "redirect"


@dataclass(frozen=True)
class Row:
    method: str
    anon: object
    student: object
    other_student: object
    crowd: object
    instructor: object
    other_instructor: object

    def expected(self, role: str) -> object:
        return getattr(self, role)


def page(method, anon=LOGIN, *, student, other_student, crowd, instructor, other_instructor) -> Row:
    return Row(method, anon, student, other_student, crowd, instructor, other_instructor)


def manager_page(method="GET", ok=200) -> Row:
    """A page of course A's instructor only."""
    return page(method, student=403, other_student=403, crowd=403, instructor=ok, other_instructor=403)


def manager_api(method="GET", ok=200) -> Row:
    return Row(method, 401, 403, 403, 403, ok, 403)


PUBLIC = Row("GET", 200, 200, 200, 200, 200, 200)

# Expected outcome per route name and role. A new route needs a row here.
HTTP_MATRIX: dict[str, Row] = {
    "home": Row("GET", LOGIN, REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT),
    "healthz": PUBLIC,
    "admin": Row("GET", LOGIN, LOGIN, LOGIN, LOGIN, LOGIN, LOGIN),  # staff only; no role here is staff
    "accounts:login": Row("GET", 200, REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT),
    "accounts:logout": Row("POST", LOGIN, LOGIN, LOGIN, LOGIN, LOGIN, LOGIN),  # signed out, back to sign-in
    "accounts:signup": Row("GET", 200, REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT),
    "api_schema": PUBLIC,
    "api_docs": PUBLIC,
    "api_redoc": PUBLIC,
    # collector pages
    "collector:dashboard": page("GET", student=200, other_student=200, crowd=200, instructor=200, other_instructor=200),
    "collector:crowd_home": page("GET", student=REDIRECT, other_student=REDIRECT, crowd=REDIRECT, instructor=REDIRECT,
                                 other_instructor=REDIRECT),  # now forwards to the annotation task list
    "collector:course_list": page("GET", student=403, other_student=403, crowd=403, instructor=200, other_instructor=200),
    "collector:course_detail": manager_page(),
    "collector:round_detail": manager_page(),
    "collector:round_write": page("GET", student=200, other_student=403, crowd=403, instructor=200, other_instructor=403),
    "collector:round_settings": manager_page(),
    # Empty forms: past the access check, the instructor is sent back with the form's error.
    "collector:round_scoring_start": manager_page("POST", ok=REFUSED),
    "collector:round_model_train": manager_page("POST", ok=REFUSED),
    "collector:round_grades_download": manager_page(),
    "collector:round_quality": manager_page(),
    "collector:round_answer_only_model": manager_page("POST", ok=REFUSED),
    "collector:review_queue": manager_page(),
    "collector:question_review": manager_page("POST", ok=REDIRECT),
    # The world's question is not rejected, so its author's appeal is refused with a reason.
    "collector:appeal_submit": page("POST", student=REFUSED, other_student=403, crowd=403, instructor=403,
                                    other_instructor=403),
    "collector:appeal_decide": manager_page("POST", ok=REDIRECT),
    "collector:validate": page("GET", student=200, other_student=200, crowd=200, instructor=200, other_instructor=200),
    # collector API
    "api:question_list": Row("GET", 401, 200, 200, 200, 200, 200),  # everyone sees their own questions
    "api:question_submit": Row("POST", 401, 201, 403, 403, 201, 403),
    "api:round_stats": manager_api(),
    "api:round_quality": manager_api(),
    "api:validation_next": Row("GET", 401, 200, 200, 200, 200, 200),
    "api:validation_submit": Row("POST", 401, 400, 400, 400, 400, 400),
    "api:review_queue": Row("GET", 401, 200, 200, 200, 200, 200),  # each sees their own courses' queue only
    "api:question_review": manager_api("POST"),
    "api:appeal_submit": Row("POST", 401, 400, 403, 403, 403, 403),
    "api:appeal_decide": manager_api("POST"),
    # evaluation pages and API
    "evaluation:round_report": manager_page(),
    "evaluation:round_report_start": manager_page("POST", ok=REFUSED),  # the round has no scoring run yet
    "evaluation:run_detail": manager_page(),
    "evaluation:run_json": manager_page(),
    "evaluation:run_table_csv": manager_page(ok=404),  # the run has no such table; access passed
    "evaluation_api:round_run_list": manager_api(),
    "evaluation_api:round_run_start": manager_api("POST", ok=201),
    "evaluation_api:run_detail": manager_api(),
    "evaluation:project_report": manager_page(),
    "evaluation:project_report_start": manager_page("POST", ok=REFUSED),  # nothing annotated to report yet
    "evaluation_api:project_run_list": manager_api(),
    "evaluation_api:project_run_start": manager_api("POST", ok=201),
    # annotation (crowd projects: crowdworkers and instructors take tasks; students are for courses)
    "annotation:task_list": page("GET", student=200, other_student=200, crowd=200, instructor=200, other_instructor=200),
    "annotation:task_start": page("POST", student=403, other_student=403, crowd=REDIRECT, instructor=REDIRECT,
                                  other_instructor=REDIRECT),
    "annotation:project_list": page("GET", student=403, other_student=403, crowd=403, instructor=200,
                                    other_instructor=200),
    "annotation:project_dashboard": manager_page(),
    "annotation:project_settings": manager_page(),
    "annotation:project_import": manager_page(),
    "annotation:project_export": manager_page(),
    "annotation:project_paragraphs": manager_page(),
    "annotation:project_flags": manager_page(),
    "annotation_api:task_next": Row("POST", 401, 403, 403, 200, 200, 200),
    "annotation_api:project_stats": manager_api(),
    "annotation_api:project_export": manager_api(),
    # Until the world holds real sessions, paragraphs, flags and span questions (KWARGS_BY_ROUTE),
    # these only show that nobody reaches a missing object and that bad input is a 400.
    "annotation:session": page("GET", student=403, other_student=403, crowd=403, instructor=403, other_instructor=403),
    "annotation:paragraph_restore": page("POST", student=403, other_student=403, crowd=403, instructor=403,
                                         other_instructor=403),
    "annotation:flag_resolve": page("POST", student=403, other_student=403, crowd=403, instructor=403,
                                    other_instructor=403),
    "annotation_api:session_detail": Row("GET", 401, 403, 403, 403, 403, 403),
    "annotation_api:session_draft": Row("POST", 401, 400, 400, 400, 400, 400),
    "annotation_api:question_add": Row("POST", 401, 400, 400, 400, 400, 400),
    "annotation_api:session_submit": Row("POST", 401, 403, 403, 403, 403, 403),
    "annotation_api:session_discard": Row("POST", 401, 400, 400, 400, 400, 400),
    "annotation_api:second_pass_answer": Row("POST", 401, 400, 400, 400, 400, 400),
    "annotation_api:question_update": Row("POST", 401, 400, 400, 400, 400, 400),
    "annotation_api:question_delete": Row("POST", 401, 403, 403, 403, 403, 403),
}

# Valid bodies and queries, so that a refusal is the access check's and not an input error's.
BODIES = {
    "api:question_submit": {"round_id": "ROUND", **question_data(prompt="Matrix question. It")},
    "api:question_review": {"action": "accept"},
    "api:appeal_submit": {"message": "Please look again."},
    "api:appeal_decide": {"uphold": True},
    "collector:question_review": {"action": "accept"},
    "collector:appeal_submit": {"message": "Please look again."},
    "collector:appeal_decide": {"decision": "uphold"},
}
QUERIES = {"collector:round_grades_download": {"format": "csv"}}

# Keyword arguments of routes: the object of course A each names (``world`` attribute), by
# route name first, then by argument name.
KWARGS_BY_ROUTE = {
    "evaluation:run_table_csv": {"section": "lexical", "table": "no-such-table"},
    # Annotation sessions and span questions need the annotation app's import and authoring
    # services (still being built): until the world makes real ones, no such object exists.
    "annotation_api:question_update": {"question_id": 999_999},
    "annotation_api:question_delete": {"question_id": 999_999},
    "annotation:task_start": {"kind": "authoring"},
}
KWARGS_BY_NAME = {
    "course_id": "course.pk", "round_id": "round.pk", "question_id": "question.pk", "appeal_id": "appeal.pk",
    "run_id": "evaluation_run.pk", "project_id": "project.pk",
    "session_id": "annotation_session.pk", "paragraph_id": "paragraph.pk", "flag_id": "flag.pk",
}

WS_MATRIX: dict[str, dict[str, bool]] = {
    # route -> role -> may connect (True) or is refused with an error and close code 4403 (False)
    "ws/author/<int:round_id>/": {"anon": False, "student": True, "other_student": False, "crowd": False, "instructor": True,
                                      "other_instructor": False},
    "ws/rounds/<int:round_id>/scoring/": {"anon": False, "student": False, "other_student": False, "crowd": False,
                                              "instructor": True, "other_instructor": False},
    # No real annotation session in the world yet (see KWARGS_BY_ROUTE): nobody may open a missing one.
    "ws/annotation/sessions/<int:session_id>/qa/": {"anon": False, "student": False, "other_student": False, "crowd": False,
                                                         "instructor": False, "other_instructor": False},
    "ws/evaluation/runs/<int:run_id>/": {"anon": False, "student": False, "other_student": False, "crowd": False,
                                             "instructor": True, "other_instructor": False},
}


class World:
    """Course A with its instructor, student, open round, question, appeal and report; course B."""

    def __init__(self, open_round, student, instructor, other_instructor, crowdworker):
        from evaluation.models import EvaluationRun

        self.round, self.course = open_round, open_round.course
        other_course = services.course_create(owner=other_instructor, name="Course B")
        other_student = make_user("bella")
        services.course_join(user=other_student, join_code=other_course.join_code)
        self.users = {"anon": None, "student": student, "other_student": other_student, "crowd": crowdworker,
                      "instructor": instructor, "other_instructor": other_instructor}
        self.question = services.question_submit(user=student, round_id=open_round.pk, **question_data())
        self.appeal = Appeal.objects.create(question=self.question, author=student, message="Please look again.")
        self.evaluation_run = EvaluationRun.objects.create(target="round", round=open_round, status="done")
        self.project = self._project(instructor)
        self.annotation_session = self.paragraph = self.flag = None  # see KWARGS_BY_ROUTE

    @staticmethod
    def _project(instructor):
        try:
            from annotation.services.projects import project_create
        except ImportError:  # the annotation app is still being built
            return None
        return project_create(owner=instructor, name="Project A")

    def kwargs_for(self, name: str, route: str, keys: list[str]) -> dict:
        given = dict(KWARGS_BY_ROUTE.get(name, {}))
        for key in keys:
            if key in given:
                continue
            assert key in KWARGS_BY_NAME, f"{name}: say which object <{key}> is (KWARGS_BY_NAME / KWARGS_BY_ROUTE)"
            attribute, _, field = KWARGS_BY_NAME[key].partition(".")
            obj = getattr(self, attribute)
            given[key] = getattr(obj, field) if obj is not None else 999_999
        return given


def _http_routes(resolver=None, prefix: str = "", namespace: str = "") -> list[tuple[str, str, list[str]]]:
    """(name, route, keyword names) of every URL pattern; the admin site counts as one route."""
    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if route == "admin/":
                found.append(("admin", route, []))
                continue
            inner = ":".join(filter(None, [namespace, pattern.namespace])) if pattern.namespace else namespace
            found += _http_routes(pattern, route, inner)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}:{pattern.name}" if namespace else pattern.name
            found.append((name, route, list(pattern.pattern.converters)))
    return found


def _path(route: str, kwargs: dict) -> str:
    path = route
    for key, value in kwargs.items():
        for converter in ("int", "slug", "str"):
            path = path.replace(f"<{converter}:{key}>", str(value))
    return "/" + path


def _outcome(response) -> object:
    if response.status_code in (301, 302):
        if "/login/" in response["Location"]:
            return LOGIN
        errors = [m for m in get_messages(response.wsgi_request) if m.level == messages.ERROR]
        return REFUSED if errors else REDIRECT
    return response.status_code


def _request(name: str, route: str, row_method: str, user, token: str | None, world: World):
    kwargs = world.kwargs_for(name, route, list(_route_keys(route)))
    path = _path(route, kwargs)
    client = Client(raise_request_exception=False)  # a 500 is an outcome to report, not a crash
    headers = {}
    if route.startswith("api/") and not route.startswith(("api/schema", "api/docs", "api/redoc")):
        if token:
            headers["HTTP_AUTHORIZATION"] = f"Token {token}"
    elif user is not None:
        client.force_login(user)
    body = {key: world.round.pk if value == "ROUND" else value for key, value in BODIES.get(name, {}).items()}
    # Each request's writes are rolled back, so one role's success can't change the next one's.
    with transaction.atomic():
        if row_method == "POST" and route.startswith("api/"):
            response = client.post(path, body, content_type="application/json", **headers)
        elif row_method == "POST":
            response = client.post(path, body, **headers)
        else:
            response = client.get(path, QUERIES.get(name, {}), **headers)
        transaction.set_rollback(True)
    return response


def _route_keys(route: str) -> list[str]:
    return re.findall(r"<\w+:(\w+)>", route)


@pytest.fixture
def world(open_round, student, instructor, other_instructor, crowdworker):
    return World(open_round, student, instructor, other_instructor, crowdworker)


@pytest.mark.django_db
def test_every_http_route_gives_each_role_exactly_what_it_may(world: World, fake_model):
    tokens = {role: Token.objects.create(user=user).key for role, user in world.users.items() if user is not None}
    routes = _http_routes()
    unlisted, wrong = [], []
    for name, route, _keys in routes:
        row = HTTP_MATRIX.get(name)
        method = row.method if row else "GET"
        observed = {role: _outcome(_request(name, route, method, world.users[role], tokens.get(role), world))
                    for role in ROLES}
        if row is None and observed["instructor"] == 405:
            method = "POST"  # a POST-only route: suggest its POST row
            observed = {role: _outcome(_request(name, route, method, world.users[role], tokens.get(role), world))
                        for role in ROLES}
        if row is None:
            unlisted.append(f'    "{name}": Row("{method}", ' + ", ".join(repr(observed[r]) for r in ROLES) + "),")
            continue
        for role in ROLES:
            if observed[role] != row.expected(role):
                wrong.append(f"{name} /{route} as {role}: expected {row.expected(role)!r}, got {observed[role]!r}")
    stale = sorted(set(HTTP_MATRIX) - {name for name, _, _ in routes})
    message = []
    if unlisted:
        message.append("Routes without a row in HTTP_MATRIX (observed outcomes; check them, then paste):\n"
                       + "\n".join(unlisted))
    if wrong:
        message.append("Outcomes that differ from HTTP_MATRIX:\n" + "\n".join(wrong))
    if stale:
        message.append(f"Rows for routes that no longer exist: {stale}")
    assert not message, "\n\n".join(message)


async def _ws_outcome(application, path: str, user) -> bool:
    communicator = WebsocketCommunicator(application, path)
    communicator.scope["user"] = user or AnonymousUser()
    connected, _ = await communicator.connect()
    assert connected
    try:
        first = await communicator.receive_output(timeout=5)
    except TimeoutError:
        first = None
    refused = False
    if first and first.get("type") == "websocket.send":
        refused = '"type": "error"' in first.get("text", "")
        if refused:
            closing = await communicator.receive_output(timeout=5)
            assert closing == {"type": "websocket.close", "code": 4403}, closing
    elif first and first.get("type") == "websocket.close":
        refused = True
    with contextlib.suppress(asyncio.CancelledError):  # the app may have finished after closing the socket
        await communicator.disconnect()
    return not refused


@pytest.mark.django_db(transaction=True)
def test_every_websocket_route_admits_exactly_the_roles_that_may(world: World, fake_model):
    from config.routing import websocket_urlpatterns

    application = URLRouter(websocket_urlpatterns)
    routes = [str(pattern.pattern) for pattern in websocket_urlpatterns]
    missing = [route for route in routes if route not in WS_MATRIX]
    assert not missing, f"websocket routes without a row in WS_MATRIX: {missing}"
    assert not set(WS_MATRIX) - set(routes), f"rows for websocket routes that no longer exist: {set(WS_MATRIX) - set(routes)}"
    wrong = []
    for route in routes:
        path = _path(route, world.kwargs_for(route, route, _route_keys(route)))
        for role in ROLES:
            admitted = asyncio.run(_ws_outcome(application, path, world.users[role]))
            if admitted != WS_MATRIX[route][role]:
                wrong.append(f"{route} as {role}: expected {'admitted' if WS_MATRIX[route][role] else 'refused'}")
    assert not wrong, "\n".join(wrong)
