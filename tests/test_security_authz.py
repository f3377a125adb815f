"""Authorisation matrix: every URL, API endpoint and websocket route, for every role.

Routes are enumerated from the URL resolver and from ``config.routing``; each must have a row in
``HTTP_MATRIX`` / ``WS_MATRIX`` with the outcome expected for each role, and a route without a
row fails the test (its observed row is printed, ready to be checked and pasted). The roles and
the world of real objects they are tried on are in ``tests/authz_world.py``.

HTML routes are requested with the session cookie, /api/ routes with ``Authorization: Token``.
POST routes get the valid body of ``BODIES`` / ``UPLOADS`` (else an empty one), so a refusal is
the access check's and not an input error's: an allowed role must get past the access check
(success, or a form or field error, a redirect back with a message) and a refused one must not.
Outcomes are the status codes, with ``login`` for "redirected to the sign-in page", ``refused``
for a redirect with an error message and ``redirect`` for any other redirect.
"""
import asyncio
import re

import pytest
from channels.routing import URLRouter
from django.db import transaction
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.authz_requests import BODIES, KWARGS_BY_NAME, KWARGS_BY_ROUTE, QUERIES, UPLOADS
from tests.authz_world import (
    LOGIN,
    PUBLIC,
    REDIRECT,
    REFUSED,
    ROLES,
    Obj,
    Row,
    World,
    http_routes,
    manager_api,
    manager_page,
    outcome,
    own_api,
    page,
    url_path,
    ws_outcome,
)

ANYONE_SIGNED_IN = Row("GET", 401, 200, 200, 200, 200, 200)
ANYONE_SIGNED_IN_PAGE = Row("GET", LOGIN, 200, 200, 200, 200, 200)
INSTRUCTORS = page("GET", student=403, other_student=403, crowd=403, instructor=200, other_instructor=200)

# Expected outcome per route name and role. A new route needs a row here.
HTTP_MATRIX: dict[str, Row] = {
    "home": Row("GET", LOGIN, REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT),
    "healthz": PUBLIC,
    # Prometheus metrics: staff or the scraper's token only; everyone else sees an unknown address.
    "metrics": Row("GET", 404, 404, 404, 404, 404, 404),
    # A worker's job pushes (core.job_relay): signed, from loopback, and only with the relay set up.
    "job_push_relay": Row("POST", 403, 403, 403, 403, 403, 403),
    "admin": Row("GET", LOGIN, LOGIN, LOGIN, LOGIN, LOGIN, LOGIN),  # staff only; no role here is staff
    "accounts:login": Row("GET", 200, REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT),
    "accounts:logout": Row("POST", LOGIN, LOGIN, LOGIN, LOGIN, LOGIN, LOGIN),  # signed out, back to sign-in
    "courses:signup": Row("GET", 200, REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT),
    "accounts:password_reset": PUBLIC,
    "accounts:password_reset_done": PUBLIC,
    "accounts:password_reset_confirm": PUBLIC,  # an invalid link: the page says so
    "accounts:password_reset_complete": PUBLIC,
    "accounts:password_change": ANYONE_SIGNED_IN_PAGE,
    "accounts:password_change_done": Row("GET", LOGIN, REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT),
    "accounts:settings": ANYONE_SIGNED_IN_PAGE,  # each sees their own token only
    "accounts:api_token_create": Row("POST", LOGIN, REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT),
    "accounts:api_token_revoke": Row("POST", LOGIN, REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT),
    "api_schema": PUBLIC,
    "api_docs": PUBLIC,
    "api_redoc": PUBLIC,
    # The crowdworkers' old start address: to the annotation task list (which asks a visitor to sign in).
    "crowd_home": Row("GET", REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT),
    # collector pages
    "collector:dashboard": page("GET", student=200, other_student=200, crowd=403, instructor=200, other_instructor=200),
    "courses:course_list": INSTRUCTORS,
    "inbox:inbox": INSTRUCTORS,
    "collector:course_detail": manager_page(),
    # The world's student has no email: past the access check the instructor is told so.
    "courses:student_password_reset": manager_page("POST", ok=REFUSED),
    # A course's teaching staff: its instructors only; the empty add form is an input error (400).
    "courses:course_staff": manager_page(),
    "courses:course_staff_remove": manager_page("POST", ok=REFUSED),  # the owner stays: refused, said why
    "courses:instructor_invite": manager_page("POST", ok=REDIRECT),  # a new link
    # The invite link: anyone may open it, but a student account (of A, or of B, who would lose their
    # dashboard) is told why not; A's instructor already teaches A and is sent to its page.
    "courses:instructor_invite_join": page("GET", anon=200, student=403, other_student=403, crowd=200,
                                           instructor=REDIRECT, other_instructor=200),
    "collector:round_detail": manager_page(),
    "collector:round_write": page("GET", student=200, other_student=403, crowd=403, instructor=200, other_instructor=403),
    "collector:round_settings": manager_page(),
    "collector:round_import": manager_page(),
    # Empty forms: past the access check, the instructor is sent back with the form's error.
    "collector:round_scoring_start": manager_page("POST", ok=REFUSED),
    "collector:round_model_train": manager_page("POST", ok=REFUSED),
    "collector:round_forecast_train": manager_page("POST", ok=REDIRECT),
    # The world's run is done: past the access check, cancelling or resuming it is refused.
    "collector:scoring_run_cancel": manager_page("POST", ok=REFUSED),
    "collector:scoring_run_resume": manager_page("POST", ok=REFUSED),
    "collector:round_grades_download": manager_page(),
    "collector:round_quality": manager_page(),
    "collector:round_answer_only_model": manager_page("POST", ok=REFUSED),
    "collector:review_queue": manager_page(),
    "collector:question_review": manager_page("POST", ok=REDIRECT),
    # The world's question is not rejected, so its author's appeal is refused with a reason.
    "collector:appeal_submit": page("POST", student=REFUSED, other_student=403, crowd=403, instructor=403,
                                    other_instructor=403),
    "collector:appeal_decide": manager_page("POST", ok=REDIRECT),
    "collector:validate": page("GET", student=200, other_student=200, crowd=403, instructor=200, other_instructor=200),
    # collector API
    "api:question_list": ANYONE_SIGNED_IN,  # everyone sees their own questions
    "api:question_submit": Row("POST", 401, 201, 403, 403, 201, 403),
    "api:round_stats": manager_api(),
    "api:round_quality": manager_api(),
    "api:round_quality_settings": manager_api("POST"),
    "api:validation_next": ANYONE_SIGNED_IN,
    "api:validation_submit": Row("POST", 401, 400, 400, 400, 400, 400),
    "api:review_queue": ANYONE_SIGNED_IN,  # each sees their own courses' queue only
    "api:question_review": manager_api("POST"),
    "api:appeal_submit": Row("POST", 401, 400, 403, 403, 403, 403),
    "api:appeal_decide": manager_api("POST"),
    "courses_api:course_list": ANYONE_SIGNED_IN,  # each sees their own courses
    "courses_api:course_create": Row("POST", 401, 403, 403, 403, 201, 201),
    "api:course_detail": manager_api(),
    "courses_api:course_students": manager_api(),
    "api:round_create": manager_api("POST", ok=201),
    "api:round_open_list": ANYONE_SIGNED_IN,  # each sees the rounds they may write in
    "api:round_detail": manager_api(),
    "api:round_questions": manager_api(),
    "api:round_settings": manager_api(),
    "api:round_settings_update": manager_api("POST"),
    "api:round_panel": manager_api(),
    "api:round_panel_update": manager_api("POST", ok=400),  # the empty body is an input error: no models
    "api:round_duplicates": manager_api(),
    "api:round_grades": manager_api(),
    "evaluation_api:round_export": manager_api(),
    "api:round_import": manager_api("POST", ok=201),
    "api:scoring_start": manager_api("POST", ok=409),  # one question is too few to score; access passed
    "api:scoring_run_list": manager_api(),
    "api:scoring_run_detail": manager_api(),
    "api:scoring_run_cancel": manager_api("POST", ok=409),  # the run is done; access passed
    "api:scoring_run_resume": manager_api("POST", ok=409),
    "api:training_start": manager_api("POST", ok=201),
    "api:training_job_list": manager_api(),
    "api:training_job_detail": manager_api(),
    "api:answer_only_model_train": manager_api("POST", ok=400),  # too few questions; access passed
    # evaluation pages and API
    "evaluation:round_report": manager_page(),
    "evaluation:round_report_start": manager_page("POST", ok=REFUSED),  # the round has no scoring run yet
    "evaluation:run_detail": manager_page(),
    "evaluation:run_json": manager_page(),
    "evaluation:run_table_csv": manager_page(ok=404),  # the run has no such table; access passed
    "evaluation_api:round_run_list": manager_api(),
    "evaluation_api:round_run_start": manager_api("POST", ok=201),
    "evaluation_api:run_detail": manager_api(),
    "evaluation_api:run_table_csv": manager_api(ok=404),  # as the page
    "evaluation:project_report": manager_page(),
    "evaluation:project_report_start": manager_page("POST", ok=REFUSED),  # the empty form; access passed
    "evaluation_api:project_run_list": manager_api(),
    "evaluation_api:project_run_start": manager_api("POST", ok=201),
    "evaluation_api:project_ambiguity_dataset_list": manager_api(),
    # dataset releases: the world's round has no accepted question and project A's one question an open
    # flag, so the release is refused with its reason (access passed)
    "evaluation:round_release": manager_page(ok=REFUSED),
    "evaluation:project_release": manager_page(ok=REFUSED),
    "evaluation_api:round_release": manager_api(ok=400),
    "evaluation_api:project_release": manager_api(ok=400),
    # leaderboards and vMER (the world's round has no accepted question, the project no test split:
    # a start is refused with that message, after the access check)
    "evaluation:round_leaderboard": manager_page(),
    "evaluation:round_leaderboard_evaluate": manager_page("POST", ok=REFUSED),
    "evaluation:round_leaderboard_csv": manager_page(),
    "evaluation:round_leaderboard_json": manager_page(),
    "evaluation:project_leaderboard": manager_page(),
    "evaluation:project_leaderboard_evaluate": manager_page("POST", ok=REFUSED),
    "evaluation:project_leaderboard_csv": manager_page(),
    "evaluation:project_leaderboard_json": manager_page(),
    "evaluation:model_evaluation_json": manager_page(),
    "evaluation_api:round_leaderboard": manager_api(),
    "evaluation_api:round_leaderboard_csv": manager_api(),
    "evaluation_api:round_model_evaluation_start": manager_api("POST", ok=400),
    "evaluation_api:project_leaderboard": manager_api(),
    "evaluation_api:project_leaderboard_csv": manager_api(),
    "evaluation_api:project_model_evaluation_start": manager_api("POST", ok=400),
    "evaluation_api:model_evaluation_detail": manager_api(),
    "evaluation_api:course_vmer": manager_api(),
    # The model registry: each instructor lists the models they may use; only course A shares A's model.
    "modelhub_api:model_list": Row("GET", 401, 403, 403, 403, 200, 200),
    # Another course's model that is not shared with them is "no such model version" (404), as a missing one.
    "modelhub_api:model_share": Row("POST", 401, 403, 403, 403, 200, 404),
    # annotation (crowd projects: crowdworkers and instructors take tasks; students are for courses)
    "annotation:task_list": page("GET", student=200, other_student=200, crowd=200, instructor=200, other_instructor=200),
    "annotation:task_start": page("POST", student=403, other_student=403, crowd=REDIRECT, instructor=REDIRECT,
                                  other_instructor=REDIRECT),
    "annotation:session": page("GET", student=403, other_student=403, crowd=200, instructor=403, other_instructor=403),
    "annotation:project_list": INSTRUCTORS,
    # the worker pages' JavaScript translations, and the language switch (Django's set_language)
    "annotation:javascript_catalog": PUBLIC,
    "javascript_catalog": PUBLIC,  # the same catalogue for the other pages (the authoring page)
    "set_language": Row("POST", REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT),
    "annotation:project_model_train": manager_page("POST", ok=REFUSED),  # no name, no answered questions
    "annotation:project_model_checkpoint": manager_page("POST", ok=REFUSED),  # no source; access passed
    "annotation:qa_training_job_status": manager_page(),  # the project's own training job
    "annotation:project_dashboard": manager_page(),
    "annotation:project_settings": manager_page(),
    "annotation:project_invites": manager_page(),
    "annotation:project_access": manager_page("POST", ok=REDIRECT),
    "annotation:invite_revoke": manager_page("POST", ok=REDIRECT),
    "annotation:invite_join": PUBLIC,  # the join page: sign up, sign in, or (a student) told it is for crowdworkers
    "annotation:project_import": manager_page(),
    "evaluation:project_export": manager_page(),
    "annotation:project_paragraphs": manager_page(),
    "annotation:paragraph_restore": manager_page("POST", ok=REDIRECT),
    "annotation:project_flags": manager_page(),
    "annotation:flag_resolve": manager_page("POST", ok=REDIRECT),
    "annotation:project_participants": manager_page(),
    "annotation:participant_data_export": manager_page(),
    "annotation:participant_data_delete": manager_page("POST", ok=REDIRECT),
    "annotation_api:task_list": ANYONE_SIGNED_IN,  # students' list is empty
    "annotation_api:task_next": Row("POST", 401, 403, 403, 200, 200, 200),
    "annotation_api:session_detail": own_api(),
    "annotation_api:session_draft": own_api("POST"),
    "annotation_api:session_heartbeat": own_api("POST"),
    "annotation_api:question_add": own_api("POST", ok=201),
    "annotation_api:session_submit": own_api("POST"),
    "annotation_api:session_discard": own_api("POST"),
    "annotation_api:second_pass_answer": own_api("POST", ok=400),  # an authoring session has no second pass
    "annotation_api:second_pass_flag": own_api("POST", ok=400),  # likewise: no answers there to flag
    "annotation_api:question_update": own_api("POST"),
    "annotation_api:question_delete": own_api("POST", ok=204),
    "annotation_api:project_list": Row("GET", 401, 403, 403, 403, 200, 200),
    "annotation_api:project_create": Row("POST", 401, 403, 403, 403, 201, 201),
    "annotation_api:project_settings": manager_api(),
    "annotation_api:project_settings_update": manager_api("POST"),
    "annotation_api:project_import_articles": manager_api("POST", ok=201),
    "annotation_api:project_import_squad": manager_api("POST", ok=201),
    "annotation_api:project_stats": manager_api(),
    "evaluation_api:project_export": manager_api(),
    "annotation_api:project_paragraphs": manager_api(),
    "annotation_api:paragraph_restore": manager_api("POST"),
    "annotation_api:project_flags": manager_api(),
    "annotation_api:flag_resolve": manager_api("POST"),
    "annotation_api:project_participants": manager_api(),
    "annotation_api:participant_data_export": manager_api(),
    "annotation_api:participant_data_delete": manager_api("POST"),
    # LTI (lti/): the LMS-facing endpoints are public; a bare request is refused with a clear 400 page.
    "lti:login": Row("GET", 400, 400, 400, 400, 400, 400),
    "lti:launch": Row("POST", 400, 400, 400, 400, 400, 400),
    "lti:jwks": PUBLIC,
    "lti:canvas_config": PUBLIC,
    "lti:platforms": INSTRUCTORS,
    "lti:round_grades_resend": manager_page("POST", ok=REDIRECT),
    "lti:project_grades_resend": manager_page("POST", ok=REDIRECT),
    "lti:course_roster": manager_page(),
    "lti:course_roster_sync": manager_page("POST", ok=REDIRECT),
    # A launch id that is not this session's: refused for everyone signed in.
    "lti:context_link": page("GET", student=403, other_student=403, crowd=403, instructor=403, other_instructor=403),
    "lti:deep_link": page("GET", student=403, other_student=403, crowd=403, instructor=403, other_instructor=403),
    "lti_platform_list": Row("GET", 401, 403, 403, 403, 200, 200),
    "lti_platform_register": Row("POST", 401, 403, 403, 403, 201, 201),
    # A registration is its maker's: another instructor is told there is none (404, as for a missing id).
    "lti:platform_edit": page("GET", student=403, other_student=403, crowd=403, instructor=200, other_instructor=404),
    "lti:platform_delete": page("POST", student=403, other_student=403, crowd=403, instructor=REDIRECT,
                                other_instructor=404),
    "lti_platform_update": Row("POST", 401, 403, 403, 403, 200, 404),
    "lti_platform_delete": Row("POST", 401, 403, 403, 403, 204, 404),
}

WS_MATRIX: dict[str, dict[str, bool]] = {
    # route -> role -> may connect (True) or is refused with an error and close code 4403 (False)
    "ws/author/<int:round_id>/": {"anon": False, "student": True, "other_student": False, "crowd": False, "instructor": True,
                                      "other_instructor": False},
    "ws/rounds/<int:round_id>/scoring/": {"anon": False, "student": False, "other_student": False, "crowd": False,
                                              "instructor": True, "other_instructor": False},
    # The crowdworker's own authoring session: only they may open its model-in-the-loop socket.
    "ws/annotation/sessions/<int:session_id>/qa/": {"anon": False, "student": False, "other_student": False, "crowd": True,
                                                         "instructor": False, "other_instructor": False},
    "ws/evaluation/runs/<int:run_id>/": {"anon": False, "student": False, "other_student": False, "crowd": False,
                                             "instructor": True, "other_instructor": False},
    "ws/evaluation/model-evaluations/<int:evaluation_id>/": {
        "anon": False, "student": False, "other_student": False, "crowd": False, "instructor": True,
        "other_instructor": False},
    # A project's training job: only the project's owner (the instructor who made Project A).
    "ws/annotation/projects/<int:project_id>/training/<int:job_id>/": {
        "anon": False, "student": False, "other_student": False, "crowd": False, "instructor": True,
        "other_instructor": False},
}


def _body(name: str, world: World) -> dict:
    placeholders = {"ROUND": world.round.pk, "FLAGGED_QUESTION": world.flagged_question.pk}
    return {key: placeholders.get(value, value) if isinstance(value, str) else value
            for key, value in BODIES.get(name, {}).items()}


def _request(name: str, route: str, row_method: str, user, token: str | None, world: World):
    path = url_path(route, world.kwargs_for(name, _route_keys(route), KWARGS_BY_ROUTE, KWARGS_BY_NAME))
    client = Client(raise_request_exception=False)  # a 500 is an outcome to report, not a crash
    headers = {}
    if route.startswith("api/") and not route.startswith(("api/schema", "api/docs", "api/redoc")):
        if token:
            headers["HTTP_AUTHORIZATION"] = f"Token {token}"
    elif user is not None:
        client.force_login(user)
    # Each request's writes are rolled back, so one role's success can't change the next one's.
    with transaction.atomic():
        if row_method == "POST" and name in UPLOADS:
            response = client.post(path, UPLOADS[name](), **headers)  # multipart
        elif row_method == "POST" and route.startswith("api/"):
            response = client.post(path, _body(name, world), content_type="application/json", **headers)
        elif row_method == "POST":
            response = client.post(path, _body(name, world), **headers)
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
    routes = http_routes()
    unlisted, wrong = [], []
    for name, route, _keys in routes:
        row = HTTP_MATRIX.get(name)
        method = row.method if row else "GET"
        observed = {role: outcome(_request(name, route, method, world.users[role], tokens.get(role), world))
                    for role in ROLES}
        if row is None and observed["instructor"] == 405:
            method = "POST"  # a POST-only route: suggest its POST row
            observed = {role: outcome(_request(name, route, method, world.users[role], tokens.get(role), world))
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
        path = url_path(route, world.kwargs_for(route, _route_keys(route), KWARGS_BY_ROUTE, KWARGS_BY_NAME))
        for role in ROLES:
            admitted = asyncio.run(ws_outcome(application, path, world.users[role]))
            if admitted != WS_MATRIX[route][role]:
                wrong.append(f"{route} as {role}: expected {'admitted' if WS_MATRIX[route][role] else 'refused'}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.django_db
def test_the_world_holds_real_objects_of_every_kind(world: World):
    """Every URL argument names an object that exists, so no row passes on a 404 alone."""
    for ref in {*KWARGS_BY_NAME.values(), *(v for kw in KWARGS_BY_ROUTE.values() for v in kw.values()
                                            if isinstance(v, Obj))}:
        attribute = ref.partition(".")[0]
        obj = getattr(world, attribute)
        assert obj is not None and type(obj).objects.filter(pk=obj.pk).exists(), ref
    assert world.annotation_session.worker == world.users["crowd"] and world.flag.status == "open"
    world.paragraph.refresh_from_db()
    assert world.paragraph.status == "discarded" and world.span_question.status == "draft"
