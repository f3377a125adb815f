"""Assignment and Grade Services 2.0: post each student's points for a round or an annotation project to the
LMS line items.

A round's score is the same number as the grade CSV's points (``collector.selectors.grades``): credit capped at the
line item's maximum. A project's score is the number of paragraphs the student finished that no open flag
holds in review (``annotation.selectors.worker_home.worker_paragraphs_accepted``), one point each, capped at the
maximum. ``grade_passback`` is idempotent: it recomputes the current score, and a score already sent is not
sent again unless ``force`` (the "send all grades again" button).
"""
import logging
from dataclasses import dataclass

import requests
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.grade import Grade
from pylti1p3.service_connector import ServiceConnector

from accounts.models import User
from annotation.selectors.worker_home import paragraphs_finished_counts, worker_paragraphs_accepted
from collector.selectors.grades import round_grades
from collector.selectors.questions import round_questions
from lti.models import GradeSync, LtiIdentity, ResourceLink
from lti.selectors import assignment_resource_links
from lti.tool_conf import registration_of, service_session

logger = logging.getLogger(__name__)


class PassbackFailed(Exception):
    """This attempt failed; the task retries (the reason is stored on the GradeSync)."""


@dataclass(frozen=True)
class PassbackTarget:
    resource_link_id: int
    user_id: int


def passback_targets(*, round_id: int | None = None, project_id: int | None = None,
                     user_ids: list[int] | None = None) -> list[PassbackTarget]:
    """(line item, student) pairs to send: the round's or project's LMS links x the students of the link's
    course who have an LMS identity there."""
    targets = []
    for link in assignment_resource_links(round_id=round_id, project_id=project_id).exclude(lineitem_url=""):
        identities = LtiIdentity.objects.filter(platform_id=link.context.platform_id)
        if user_ids is not None:
            identities = identities.filter(user_id__in=user_ids)
        course_id = link.context.course_id
        for user_id in identities.filter(user__enrollments__course_id=course_id).values_list("user_id", flat=True):
            targets.append(PassbackTarget(link.pk, user_id))
    return targets


def _started(link: ResourceLink, user: User) -> bool:
    """Whether the student has done anything the score counts: a question in the round, a finished paragraph
    in the project. One who has not gets no score (a blank in the gradebook, not a zero)."""
    if link.project is not None:
        return paragraphs_finished_counts(project_ids=[link.project_id], user_ids=[user.pk]).get(user.pk, 0) > 0
    if link.round is not None:
        return round_questions(round_=link.round, author_id=user.pk).exists()
    return True  # neither any more: _score says so, and the failure is recorded


def _score(link: ResourceLink, user: User, maximum: float) -> float:
    if link.project is not None:
        return float(min(worker_paragraphs_accepted(user=user, project=link.project), maximum))
    if link.round is None:
        raise ValueError("the assignment's round or project no longer exists")
    rows = round_grades(round_=link.round, points_possible=maximum)
    return next((row.points for row in rows if row.user.pk == user.pk), 0.0)


def _ags(link: ResourceLink) -> AssignmentsGradesService:
    connector = ServiceConnector(registration_of(link.context.platform), service_session(link.context.platform))
    return AssignmentsGradesService(connector, {"scope": link.ags_scopes, "lineitem": link.lineitem_url})


def _score_maximum(link: ResourceLink) -> float:
    """The line item's maximum (set in the LMS, e.g. by deep linking), read once from the LMS (AGS 2.0 §3.2)."""
    if link.score_maximum is None:
        maximum = float(_ags(link).get_lineitem().get_score_maximum())
        if maximum <= 0:
            raise ValueError(f"the LMS line item has scoreMaximum {maximum}")
        ResourceLink.objects.filter(pk=link.pk).update(score_maximum=maximum)
        link.score_maximum = maximum
    return link.score_maximum


def _post_score(link: ResourceLink, subject: str, score: float | None) -> None:
    service = _ags(link)
    # AGS 2.0 §3.4 Score: userId, scoreGiven, scoreMaximum, activityProgress, gradingProgress, timestamp.
    grade = Grade().set_user_id(subject).set_timestamp(timezone.now().isoformat(timespec="milliseconds"))
    if score is None:  # nothing done (any more): no scoreGiven, so the gradebook shows a blank, not a zero
        grade.set_activity_progress("Initialized").set_grading_progress("NotReady")
    else:
        grade.set_score_given(score).set_score_maximum(link.score_maximum)
        grade.set_activity_progress("Submitted").set_grading_progress("FullyGraded")
    service.put_grade(grade)


def _reason(exc: Exception) -> str:
    if isinstance(exc, LtiServiceException):
        return f"the LMS answered HTTP {exc.response.status_code}: {exc.response.text[:300]}"
    if isinstance(exc, requests.Timeout):
        return f"the LMS did not answer within {settings.STUMPER_LTI_HTTP_TIMEOUT:g} s"
    return f"{type(exc).__name__}: {exc}"[:500]


def grade_passback(*, resource_link_id: int, user_id: int, last_attempt: bool = True,
                   force: bool = False) -> GradeSync | None:
    """Send one student's current score to one line item and record the outcome.

    A student who has done nothing there (``_started``) is sent nothing and gets no record (None); if a score
    was sent before, it is withdrawn (AGS "Initialized"/"NotReady" without a score).
    On failure: with ``last_attempt`` the sync is marked failed with the reason; otherwise it stays
    pending with the reason and PassbackFailed is raised so that the task retries."""
    link = ResourceLink.objects.select_related("context__platform", "round", "project").get(pk=resource_link_id)
    user = User.objects.get(pk=user_id)
    identity = LtiIdentity.objects.get(platform=link.context.platform, user=user)
    started = _started(link, user)
    if not started and not GradeSync.objects.filter(resource_link=link, user=user).exists():
        return None
    sync, _ = GradeSync.objects.get_or_create(resource_link=link, user=user)
    try:
        score = _score(link, user, _score_maximum(link)) if started else None
        if not force and sync.status == GradeSync.Status.SENT and sync.score_given == score \
                and sync.score_maximum == link.score_maximum:
            return sync
        _post_score(link, identity.subject, score)
    except (LtiServiceException, LtiException, requests.RequestException, ValueError, KeyError, TypeError) as exc:
        reason = _reason(exc)
        _record(sync, status=GradeSync.Status.FAILED if last_attempt else GradeSync.Status.PENDING, error=reason)
        logger.warning("LTI grade passback of user %s to %s failed%s: %s", user_id, link.lineitem_url,
                       "" if last_attempt else " (will retry)", reason)
        if not last_attempt:
            raise PassbackFailed(reason) from exc
        return sync
    _record(sync, status=GradeSync.Status.SENT, error="", score=score, maximum=link.score_maximum)
    return sync


@transaction.atomic
def _record(sync: GradeSync, *, status: str, error: str, score: float | None = None, maximum: float | None = None) -> None:
    sync.status = status
    sync.last_error = error
    sync.attempts += 1
    fields = ["status", "last_error", "attempts", "updated_at"]
    if status == GradeSync.Status.SENT:
        sync.score_given, sync.score_maximum, sync.sent_at = score, maximum, timezone.now()
        fields += ["score_given", "score_maximum", "sent_at"]
    sync.save(update_fields=fields)
