"""OIDC login initiation, the launch, and the tool's public key set (IMS LTI 1.3 Core §5, IMS Security §5)."""
import logging

import requests
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from pylti1p3.contrib.django import DjangoOIDCLogin
from pylti1p3.exception import LtiException, LtiServiceException, OIDCException

from lti.launch_storage import OneTimeNonceCacheStorage
from lti.models import Platform
from lti.services import keys
from lti.services.launch import LaunchRefused, LaunchResult, launch_accept
from lti.tool_conf import StumperMessageLaunch, StumperToolConf

logger = logging.getLogger(__name__)
SESSION_KEY = "lti"  # {"platform_id", "launch_id"}: this session began with an LTI launch
MISSING = {
    "round": gettext_lazy("This LMS assignment points to a Stumper round that no longer exists or is not part of this "
                          "course. Ask your instructor to choose it again in the LMS."),
    "project": gettext_lazy("This LMS assignment points to a Stumper project that no longer exists or is not part of "
                            "this course. Ask your instructor to choose it again in the LMS."),
}


def refused(request: HttpRequest, reason: str, status: int = 400) -> HttpResponse:
    logger.warning("LTI launch refused: %s", reason)
    return render(request, "lti/refused.html", {"reason": reason}, status=status)


def message_launch(request: HttpRequest) -> StumperMessageLaunch:
    return StumperMessageLaunch(request, StumperToolConf(), launch_data_storage=OneTimeNonceCacheStorage())


@csrf_exempt
@never_cache
@require_http_methods(["GET", "POST"])
def lti_login(request: HttpRequest) -> HttpResponse:
    """Third-party initiated login: answer the platform with an OIDC authentication request."""
    try:
        oidc = DjangoOIDCLogin(request, StumperToolConf(), launch_data_storage=OneTimeNonceCacheStorage())
        return oidc.redirect(request.build_absolute_uri(reverse("lti:launch")))
    except (LtiException, OIDCException, KeyError) as exc:
        return refused(request, f"The LMS login request was not accepted: {exc}")


@csrf_exempt
@never_cache
@require_POST
def lti_launch(request: HttpRequest) -> HttpResponse:
    """The signed launch: validate it (pylti1p3), sign the user in, send them where the link points."""
    try:
        launch = message_launch(request)  # over HTTPS this already needs the login's session-id cookie
        data = launch.get_launch_data()
    except (LtiServiceException, requests.RequestException) as exc:
        # Not expected here (the key set's failures are KeySetUnavailable); the text may hold a remote answer.
        logger.warning("LTI launch: a request to the LMS failed: %s", str(exc)[:300])
        return refused(request, _("The launch could not be verified: the LMS could not be reached."))
    except (LtiException, ValueError, KeyError) as exc:
        # ValueError/KeyError: a malformed id_token. The messages are pylti1p3's and ours, never an LMS's answer.
        return refused(request, _("The launch could not be verified: %(reason)s") % {"reason": exc})
    platform = Platform.objects.get(issuer=data["iss"], client_id=launch.get_client_id())
    try:
        result = launch_accept(platform=platform, data=data)
    except LaunchRefused as exc:
        return refused(request, str(exc), status=403)
    return signed_in_redirect(request, result, platform=platform, launch_id=launch.get_launch_id())


def signed_in_redirect(request: HttpRequest, result: LaunchResult, *, platform: Platform, launch_id: str) -> HttpResponse:
    if request.user.is_authenticated and request.user.pk != result.user.pk:
        request.session.flush()
    login(request, result.user, backend="django.contrib.auth.backends.ModelBackend")
    request.session[SESSION_KEY] = {"platform_id": platform.pk, "launch_id": launch_id}
    if result.needs_course_link:
        return redirect("lti:context_link", launch_id=launch_id)
    if result.deep_linking:
        return redirect("lti:deep_link", launch_id=launch_id)
    course = result.context.course
    if result.missing:
        messages.warning(request, str(MISSING[result.missing]))
    if result.round is not None:
        name = "collector:round_detail" if result.role == "instructor" else "collector:round_write"
        return redirect(name, round_id=result.round.pk)
    if result.project is not None:
        if result.manages_project:
            return redirect("annotation:project_dashboard", project_id=result.project.pk)
        if not result.project.is_active:  # its card is not on the task list until the owner reopens it
            messages.info(request, _("%(name)s is not taking annotations at the moment. Try again later.")
                          % {"name": result.project.name})
        return redirect(reverse("annotation:task_list") + f"#project-{result.project.pk}")
    if result.role == "instructor":
        return redirect("collector:course_detail", course_id=course.pk)
    return redirect("collector:dashboard")


@require_safe
def lti_jwks(request: HttpRequest) -> JsonResponse:
    """The tool's public keys (current and recently retired), for platforms to verify our JWTs."""
    response = JsonResponse(keys.tool_jwks())
    response["Cache-Control"] = "public, max-age=300"
    return response
