"""The LMS settings page: the tool's URLs to paste into the LMS, and registering an LMS."""
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from lti import selectors
from lti.services.registration import platform_register
from lti.views.config import tool_urls


class PlatformForm(forms.Form):
    name = forms.CharField(max_length=200)
    issuer = forms.URLField(assume_scheme="https", max_length=500, help_text="e.g. https://canvas.instructure.com")
    client_id = forms.CharField(max_length=255)
    deployment_ids = forms.CharField(help_text="One or more, separated by commas or spaces")
    auth_login_url = forms.URLField(assume_scheme="https", max_length=500, label="Platform OIDC auth URL")
    auth_token_url = forms.URLField(assume_scheme="https", max_length=500, label="Platform token URL")
    key_set_url = forms.URLField(assume_scheme="https", max_length=500, label="Platform key set (JWKS) URL")
    auth_audience = forms.CharField(max_length=500, required=False, label="Token audience (if not the token URL)")
    frame_origins = forms.CharField(required=False, label="LMS web origins (iframe)",
                                    help_text="e.g. https://school.instructure.com; separated by commas or spaces")

    def clean_frame_origins(self) -> list[str]:
        return [o for o in self.cleaned_data["frame_origins"].replace(",", " ").split() if o]

    def clean_deployment_ids(self) -> list[str]:
        return [d for d in self.cleaned_data["deployment_ids"].replace(",", " ").split() if d]


@login_required
@require_http_methods(["GET", "POST"])
def platform_list(request: HttpRequest) -> HttpResponse:
    if not request.user.is_instructor:
        raise PermissionDenied("Only instructors and admins manage LMS registrations.")
    form = PlatformForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            platform = platform_register(created_by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, f"{platform.name} is registered.")
            return redirect("lti:platforms")
    return render(request, "lti/platforms.html",
                  {"form": form, "platforms": selectors.platforms_list(), "urls": tool_urls(request)})
