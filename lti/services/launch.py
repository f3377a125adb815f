"""What a validated launch does: link the account, enrol it, record the context and resource link.

The launch JWT has already been validated by pylti1p3 (signature, expiry, nonce, registration,
deployment); this module only reads its claims (lti/claims.py).
"""
import hashlib
import logging
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from accounts.services import user_create
from annotation.models import Project
from annotation.selectors.projects import can_manage
from annotation.services.invites import project_member_add
from collector.models import Round
from courses.models import Course
from courses.services import course_create, course_join
from lti import claims
from lti.models import ContextLink, LtiIdentity, Platform, ResourceLink
from lti.outbound import service_url_ok
from lti.selectors import course_projects

logger = logging.getLogger(__name__)
SERVICE_URL_MAX_LENGTH = ContextLink._meta.get_field("memberships_url").max_length


class LaunchRefused(Exception):
    """A valid launch that this tool cannot honour (no usable role, course not set up yet)."""


@dataclass(frozen=True)
class LaunchResult:
    user: User
    context: ContextLink
    role: str  # "instructor" or "student"
    round: Round | None
    needs_course_link: bool
    deep_linking: bool
    project: Project | None = None
    manages_project: bool = False  # an instructor who may manage the project: its owner page, not its tasks
    missing: str = ""  # "round" or "project": the link names one that is gone or not this course's


def _context_of(platform: Platform, data: dict) -> ContextLink:
    context_claim = data.get(claims.CONTEXT) or {}
    if not context_claim.get("id"):
        raise LaunchRefused(gettext("The LMS sent no course (context) with this launch."))
    context, _ = ContextLink.objects.get_or_create(platform=platform, context_id=str(context_claim["id"]))
    context.title = str(context_claim.get("title") or context_claim.get("label") or "")[:255]
    nrps = data.get(claims.NRPS) or {}
    context.memberships_url = _service_url(platform, nrps.get("context_memberships_url")) or context.memberships_url
    context.save()
    return context


def _service_url(platform: Platform, url: object) -> str:
    """A roster or line item URL of the launch's claims if the tool may call it: on one of the platform's hosts
    (``Platform.service_hosts``), in a form ``lti/outbound.py`` accepts. Any other is ignored (logged): the
    launch goes on without that service rather than have the tool send the LMS's tokens elsewhere."""
    if not url:
        return ""
    url = str(url)
    if len(url) <= SERVICE_URL_MAX_LENGTH and service_url_ok(url, platform.service_hosts()):
        return url
    logger.warning("LTI: ignored the service URL %.200s of a launch from %s: not an https URL on its hosts %s", url,
                   platform.issuer, sorted(platform.service_hosts()))
    return ""


def _username(platform: Platform, subject: str) -> str:
    return f"lti{platform.pk}-{hashlib.sha256(subject.encode()).hexdigest()[:16]}"


def _launch_ids(data: dict) -> dict[str, str]:
    """The LMS's ids of the person that grade files name rows by (Core §5.4.5 ``lis``; ``email``), as this
    launch gives them: an LMS may change them, so every launch refreshes them."""
    lis = data.get(claims.LIS)
    sourcedid = lis.get("person_sourcedid") if isinstance(lis, dict) else None
    email = data.get("email")
    return {"person_sourcedid": sourcedid[:255] if isinstance(sourcedid, str) else "",
            "email": email[:254] if isinstance(email, str) else ""}


def _user_of(platform: Platform, data: dict, role: str) -> User:
    """The account linked to issuer + subject; a new one if there is none (never matched by e-mail)."""
    subject = str(data.get("sub") or "")
    if not subject:
        raise LaunchRefused(gettext("The LMS sent an anonymous launch (no subject); Stumper needs to know who you are."))
    identity = LtiIdentity.objects.select_related("user").filter(platform=platform, subject=subject).first()
    ids = _launch_ids(data)
    if identity is not None:
        LtiIdentity.objects.filter(pk=identity.pk).exclude(**ids).update(**ids)
        return identity.user
    user = user_create(
        username=_username(platform, subject), password=secrets.token_urlsafe(32),  # nobody knows it: LMS sign-in only
        role=User.Role.INSTRUCTOR if role == "instructor" else User.Role.STUDENT,
        email=str(data.get("email") or ""), first_name=str(data.get("given_name") or "")[:150],
        last_name=str(data.get("family_name") or "")[:150])
    LtiIdentity.objects.create(platform=platform, subject=subject, user=user, **ids)
    logger.info("LTI: new account %s for %s sub=%s", user.username, platform.issuer, subject)
    return user


def _enrol(user: User, course: Course, role: str) -> None:
    if role == "instructor":
        course.instructors.add(user)
    else:
        course_join(user=user, join_code=course.join_code)


def _custom_id(custom: dict, name: str) -> int | None:
    value = str(custom.get(name) or "")
    return int(value) if value.isdigit() else None


def _resource_link(context: ContextLink, data: dict) -> tuple[ResourceLink | None, str]:
    """The launch's resource link, pointing where its custom parameter says; and "round"/"project" when
    that one does not exist (any more) or is not the linked course's."""
    link_claim = data.get(claims.RESOURCE_LINK) or {}
    if not link_claim.get("id"):
        return None, ""
    link, _ = ResourceLink.objects.get_or_create(context=context, resource_link_id=str(link_claim["id"]))
    link.title = str(link_claim.get("title") or "")[:255]
    custom = data.get(claims.CUSTOM) or {}
    round_id, project_id = _custom_id(custom, claims.CUSTOM_ROUND), _custom_id(custom, claims.CUSTOM_PROJECT)
    # Only a round of the course this context is linked to, or a project of one of its instructors:
    # a link copied into another LMS course must not open another course's work.
    if round_id is not None:
        link.round = Round.objects.filter(pk=round_id, course=context.course).first() or link.round
        link.project = None if link.round is not None else link.project
    elif project_id is not None:
        link.project = course_projects(course=context.course).filter(pk=project_id).first() or link.project
        link.round = None if link.project is not None else link.round
    missing = ("round" if round_id is not None and link.round is None
               else "project" if project_id is not None and link.project is None else "")
    ags = data.get(claims.AGS_ENDPOINT) or {}
    platform = context.platform
    link.lineitem_url = _service_url(platform, ags.get("lineitem")) or link.lineitem_url
    link.lineitems_url = _service_url(platform, ags.get("lineitems")) or link.lineitems_url
    link.ags_scopes = list(ags.get("scope") or link.ags_scopes)
    link.save()
    return link, missing


def _project_join(user: User, project: Project, role: str) -> bool:
    """Whether ``user`` manages ``project`` (an instructor launch then opens its owner page); anyone else
    becomes one of its workers, as an invite link makes a crowdworker one."""
    if role == "instructor" and can_manage(user, project):
        return True
    project_member_add(project=project, user=user)
    return False


@transaction.atomic
def launch_accept(*, platform: Platform, data: dict) -> LaunchResult:
    """Sign-in, enrolment and bookkeeping of one validated launch (resource link or deep linking)."""
    role = claims.course_role(data.get(claims.ROLES) or [])
    if role is None:
        raise LaunchRefused(gettext("Your role in this LMS course is neither instructor, teaching assistant nor learner."))
    deep_linking = data.get(claims.MESSAGE_TYPE) == "LtiDeepLinkingRequest"
    if deep_linking and role != "instructor":
        raise LaunchRefused(gettext("Only instructors can add Stumper rounds and projects to an LMS course."))
    context = _context_of(platform, data)
    if context.course is None and role != "instructor":
        raise LaunchRefused(gettext("Your instructor has not set up Stumper for this course yet. Try again later."))
    user = _user_of(platform, data, role)
    link, missing = None, ""
    if context.course is not None:
        _enrol(user, context.course, role)
        if not deep_linking:
            link, missing = _resource_link(context, data)
    round_, project = (link.round, link.project) if link is not None else (None, None)
    manages_project = _project_join(user, project, role) if project is not None else False
    return LaunchResult(user=user, context=context, role=role, round=round_, needs_course_link=context.course is None,
                        deep_linking=deep_linking, project=project, manages_project=manages_project, missing=missing)


@transaction.atomic
def context_link_course(*, user: User, context_id: int, course: Course | None, new_course_name: str = "") -> ContextLink:
    """Link an LMS course to an existing Stumper course the user manages, or to a new one."""
    context = ContextLink.objects.select_for_update().get(pk=context_id)
    if course is None:
        course = course_create(owner=user, name=new_course_name or context.title or "LMS course")
    context.course = course
    context.save(update_fields=["course"])
    course.instructors.add(user)
    return context
