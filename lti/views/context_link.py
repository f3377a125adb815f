"""First launch from an unknown LMS course: the instructor links it to a course or creates one."""
from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods
from pylti1p3.exception import LtiException

from courses.selectors import courses_managed_by
from lti import claims
from lti.launch_storage import OneTimeNonceCacheStorage
from lti.models import ContextLink, Platform
from lti.services.launch import LaunchRefused, context_link_course, launch_accept
from lti.tool_conf import StumperMessageLaunch, StumperToolConf
from lti.views.launch import SESSION_KEY, refused, signed_in_redirect


class ContextLinkForm(forms.Form):
    course = forms.ModelChoiceField(queryset=None, required=False, empty_label=_("(create a new course)"), label=_("Course"))
    new_course_name = forms.CharField(max_length=200, required=False, label=_("New course name"))

    def __init__(self, *args, courses, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["course"].queryset = courses


def cached_launch(request: HttpRequest, launch_id: str) -> tuple[Platform, dict]:
    """The launch this session validated (pylti1p3 keeps its claims in the cache under ``launch_id``)."""
    if (request.session.get(SESSION_KEY) or {}).get("launch_id") != launch_id:
        raise PermissionDenied("This LMS launch belongs to another session.")
    try:
        launch = StumperMessageLaunch.from_cache(launch_id, request, StumperToolConf(),
                                                 launch_data_storage=OneTimeNonceCacheStorage())
    except LtiException as exc:
        raise PermissionDenied(f"The LMS launch has expired ({exc}): open the link from your LMS again.") from exc
    data = launch.get_launch_data()
    return Platform.objects.get(issuer=data["iss"], client_id=launch.get_client_id()), data


@login_required
@require_http_methods(["GET", "POST"])
def context_link(request: HttpRequest, launch_id: str) -> HttpResponse:
    platform, data = cached_launch(request, launch_id)
    if claims.course_role(data.get(claims.ROLES) or []) != "instructor":
        raise PermissionDenied("Only an instructor can set up Stumper for this LMS course.")
    context = ContextLink.objects.get(platform=platform, context_id=str(data[claims.CONTEXT]["id"]))
    form = ContextLinkForm(request.POST or None, courses=courses_managed_by(user=request.user),
                           initial={"new_course_name": context.title})
    if request.method == "POST" and form.is_valid():
        context_link_course(user=request.user, context_id=context.pk, course=form.cleaned_data["course"],
                            new_course_name=form.cleaned_data["new_course_name"])
        try:
            result = launch_accept(platform=platform, data=data)
        except LaunchRefused as exc:
            return refused(request, str(exc), status=403)
        return signed_in_redirect(request, result, platform=platform, launch_id=launch_id)
    return render(request, "lti/context_link.html", {"form": form, "context": context, "platform": platform})
