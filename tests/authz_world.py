"""The world and the machinery of the authorisation matrix (``test_security_authz.py``).

The world holds one real object of every kind a URL can name, all belonging to course A (or to
A's instructor, or to the crowdworker), so each route's answer is a real access decision, never a
404 for a missing object. Roles:

- ``anon``: not signed in
- ``student``: enrolled in course A; ``other_student``: enrolled in course B only
- ``crowd``: a crowdworker (in no course) with an authoring session and a draft question in project A
- ``instructor``: owns course A and annotation project A; ``other_instructor``: owns course B
"""
import asyncio
import contextlib
from dataclasses import dataclass

from channels.testing import WebsocketCommunicator
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import get_messages
from django.urls import URLPattern, URLResolver, get_resolver

from annotation.models import QATrainingJob
from annotation.services.authoring import question_add, session_discard, session_start_on, session_submit
from annotation.services.invites import invite_create
from annotation.services.second_pass import second_pass_answer_save
from annotation.tests.factories import EN_CONTEXT, add_paragraphs, answer, make_project
from collector.models import Appeal, TrainingJob
from collector.services.questions import question_submit
from collector.tests.factories import finished_scoring_run, make_user, question_data
from courses.services import course_create, course_instructor_invite_renew, course_join
from evaluation.release_form import SESSION_KEY as RELEASE_FORM_KEY
from lti.services.registration import platform_register
from modelhub.services import model_version_register

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
    """A page of course A's instructor (or project A's owner) only."""
    return page(method, student=403, other_student=403, crowd=403, instructor=ok, other_instructor=403)


def manager_api(method="GET", ok=200) -> Row:
    return Row(method, 401, 403, 403, 403, ok, 403)


def own_api(method="GET", ok=200) -> Row:
    """An API operation on the crowdworker's own annotation session or question."""
    return Row(method, 401, 403, 403, ok, 403, 403)


PUBLIC = Row("GET", 200, 200, 200, 200, 200, 200)


class Obj(str):
    """A URL argument naming a world object (``"span_question.pk"``) rather than a literal value."""


class World:
    """Course A with its instructor, student, open round, question, appeal, scoring run, training
    job and evaluation report; course B; project A with a crowdworker's session, a draft question,
    a discarded paragraph and an open flag from the second pass."""

    def __init__(self, open_round, student, instructor, other_instructor, crowdworker):
        from evaluation.models import EvaluationRun, ModelEvaluation

        self.round, self.course = open_round, open_round.course
        course_instructor_invite_renew(course=self.course)  # its instructor invite link
        other_course = course_create(owner=other_instructor, name="Course B")
        other_student = make_user("bella")
        course_join(user=other_student, join_code=other_course.join_code)
        self.users = {"anon": None, "student": student, "other_student": other_student, "crowd": crowdworker,
                      "instructor": instructor, "other_instructor": other_instructor}
        self.question = question_submit(user=student, round_id=open_round.pk, **question_data())
        self.appeal = Appeal.objects.create(question=self.question, author=student, message="Please look again.")
        self.scoring_run = finished_scoring_run(open_round, {self.question.pk: [True]})
        self.training_job = TrainingJob.objects.create(round=open_round, name="matrix-job", status="failed")
        self.course_model = model_version_register(name="matrix-course-a-model", kind="multiple_choice",
                                                   path="/m/matrix", course_id=self.course.pk)
        self.evaluation_run = EvaluationRun.objects.create(target="round", round=open_round, status="done")
        self.model_evaluation = ModelEvaluation.objects.create(
            target="round", round=open_round, model_version=open_round.live_model, status="done", snapshot_id="0" * 64)
        self._annotation(instructor, crowdworker)
        # A's instructor's LMS registration (not the issuer + client id that lti_platform_register's body names).
        self.platform = platform_register(
            created_by=instructor, name="Matrix A LMS", issuer="https://lms-a.example", client_id="a1",
            deployment_ids=["d1"], auth_login_url="https://lms-a.example/auth",
            auth_token_url="https://lms-a.example/token", key_set_url="https://lms-a.example/jwks")

    def _annotation(self, instructor, crowdworker) -> None:
        self.project = make_project(instructor, name="Project A", questions_min=1, questions_max=4)
        self.project_invite = invite_create(project=self.project, created_by=instructor, days=7)
        self.qa_training_job = QATrainingJob.objects.create(project=self.project, name="matrix-qa", status="failed")
        authoring, flagged, discarded = (add_paragraphs(self.project, [EN_CONTEXT], split=split, title=title)[0]
                                         for split, title in [("train", "Nile"), ("validation", "Nile 2"),
                                                              ("train", "Nile 3")])
        wendy, walt = make_user("wendy", role="crowdworker"), make_user("walt", role="crowdworker")
        written = session_start_on(user=wendy, paragraph=flagged)
        self.flagged_question = question_add(
            session=written, user=wendy, question="Where do the branches meet?", answer=answer(EN_CONTEXT, "Khartoum"))
        session_submit(session=written, user=wendy)
        check = session_start_on(user=walt, paragraph=flagged, kind="second_pass")
        second_pass_answer_save(
            session=check, user=walt, question_id=self.flagged_question.pk, is_impossible=True,
            flag={"proposal": "remove_question", "reason": "not in the text"})
        self.flag = self.flagged_question.flags.get()
        gone = session_start_on(user=walt, paragraph=discarded)
        session_discard(session=gone, user=walt, reason="hard_to_understand")
        self.paragraph = discarded
        self.annotation_session = session_start_on(user=crowdworker, paragraph=authoring)
        self.span_question = question_add(
            session=self.annotation_session, user=crowdworker, question="Which sea does the Nile empty into?",
            answer=answer(EN_CONTEXT, "the Mediterranean Sea"))

    def kwargs_for(self, name: str, keys: list[str], by_route: dict, by_name: dict) -> dict:
        """The URL arguments of route ``name``: ``by_route[name]`` first, then ``by_name[key]``."""
        given = dict(by_route.get(name, {}))
        for key in keys:
            if key not in given:
                assert key in by_name, f"{name}: say which object <{key}> is (KWARGS_BY_NAME / KWARGS_BY_ROUTE)"
                given[key] = Obj(by_name[key])
        return {key: self._resolve(value) if isinstance(value, Obj) else value for key, value in given.items()}

    def _resolve(self, ref: str):
        attribute, _, field = ref.partition(".")
        return getattr(getattr(self, attribute), field)


def http_routes(resolver=None, prefix: str = "", namespace: str = "") -> list[tuple[str, str, list[str]]]:
    """(name, route, keyword names) of every URL pattern; the admin site counts as one route."""
    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if route == "admin/":
                found.append(("admin", route, []))
                continue
            inner = ":".join(filter(None, [namespace, pattern.namespace])) if pattern.namespace else namespace
            found += http_routes(pattern, route, inner)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}:{pattern.name}" if namespace else pattern.name
            found.append((name, route, list(pattern.pattern.converters)))
    return found


def url_path(route: str, kwargs: dict) -> str:
    path = route
    for key, value in kwargs.items():
        for converter in ("int", "slug", "str"):
            path = path.replace(f"<{converter}:{key}>", str(value))
    return "/" + path


def outcome(response) -> object:
    if response.status_code in (301, 302):
        if "/login/" in response["Location"]:
            return LOGIN
        errors = [m for m in get_messages(response.wsgi_request) if m.level == messages.ERROR]
        # The release form's refusal goes back to the form in the session, not as a message.
        kept = response.wsgi_request.session.get(RELEASE_FORM_KEY)
        return REFUSED if errors or (kept and kept.get("error")) else REDIRECT
    return response.status_code


async def ws_outcome(application, path: str, user) -> bool:
    """True when ``user`` may keep the socket open; False when refused with an error and 4403."""
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
