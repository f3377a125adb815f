"""The instructor picks a round or an annotation project in the LMS's "add content" dialog (Deep Linking 2.0)."""
from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from collector.selectors.rounds import course_rounds
from courses.selectors import user_manages_course
from lti import claims, selectors
from lti.launch_storage import OneTimeNonceCacheStorage
from lti.models import ContextLink
from lti.services.deep_linking import deep_link_response_form
from lti.tool_conf import StumperMessageLaunch, StumperToolConf
from lti.views.context_link import cached_launch


class DeepLinkForm(forms.Form):
    round = forms.ModelChoiceField(queryset=None, required=False, empty_label="—", label=_("Round"))
    project = forms.ModelChoiceField(queryset=None, required=False, empty_label="—", label=_("or an annotation project"))
    score_maximum = forms.FloatField(min_value=0.01, initial=10, label=_("Maximum score in the LMS gradebook"), help_text=_(
        "A round: points are credit, capped at this. A project: one point per paragraph accepted, capped at this, "
        "so set it to the number of paragraphs each student should do."))

    def __init__(self, *args, rounds, projects, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["round"].queryset = rounds
        self.fields["project"].queryset = projects

    def clean(self) -> dict:
        cleaned = super().clean()
        if (cleaned.get("round") is None) == (cleaned.get("project") is None):
            raise forms.ValidationError(_("Choose one round or one annotation project."))
        return cleaned


@login_required
@require_http_methods(["GET", "POST"])
def deep_link(request: HttpRequest, launch_id: str) -> HttpResponse:
    platform, data = cached_launch(request, launch_id)
    if data.get(claims.MESSAGE_TYPE) != "LtiDeepLinkingRequest":
        raise PermissionDenied("This launch was not an LMS content selection.")
    context = ContextLink.objects.select_related("course").get(platform=platform, context_id=str(data[claims.CONTEXT]["id"]))
    if context.course is None or not user_manages_course(user=request.user, course=context.course):
        raise PermissionDenied("Only an instructor of the linked course can add its rounds and projects to the LMS.")
    form = DeepLinkForm(request.POST or None, rounds=course_rounds(course=context.course),
                        projects=selectors.deep_link_projects(user=request.user, course=context.course))
    if request.method == "POST" and form.is_valid():
        launch = StumperMessageLaunch.from_cache(launch_id, request, StumperToolConf(),
                                                 launch_data_storage=OneTimeNonceCacheStorage())
        html = deep_link_response_form(launch=launch, target=form.cleaned_data["round"] or form.cleaned_data["project"],
                                       score_maximum=form.cleaned_data["score_maximum"],
                                       launch_url=request.build_absolute_uri(reverse("lti:launch")))
        return HttpResponse(html)
    return render(request, "lti/deep_link.html", {"form": form, "context": context})
