"""The LMS settings page: the tool's URLs to paste into the LMS, your LMS registrations, registering,
changing and removing one (only your own: lti.services.registration)."""
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from lti import selectors
from lti.models import Platform
from lti.services.registration import PlatformTaken, platform_delete, platform_register, platform_update
from lti.views.config import tool_urls


def _words(text: str) -> list[str]:
    return [word for word in text.replace(",", " ").split() if word]


class PlatformForm(forms.Form):
    name = forms.CharField(max_length=200, label=gettext_lazy("Name"))
    issuer = forms.URLField(assume_scheme="https", max_length=500, label=gettext_lazy("Issuer"),
                            help_text=gettext_lazy("e.g. https://canvas.instructure.com"))
    client_id = forms.CharField(max_length=255, label=gettext_lazy("Client id"))
    deployment_ids = forms.CharField(label=gettext_lazy("Deployment ids"),
                                     help_text=gettext_lazy("One or more, separated by commas or spaces"))
    auth_login_url = forms.URLField(assume_scheme="https", max_length=500, label=gettext_lazy("Platform OIDC auth URL"))
    auth_token_url = forms.URLField(assume_scheme="https", max_length=500, label=gettext_lazy("Platform token URL"))
    key_set_url = forms.URLField(assume_scheme="https", max_length=500, label=gettext_lazy("Platform key set (JWKS) URL"))
    auth_audience = forms.CharField(max_length=500, required=False, label=gettext_lazy("Token audience (if not the token URL)"))
    frame_origins = forms.CharField(required=False, label=gettext_lazy("LMS web origins (iframe)"),
                                    help_text=gettext_lazy("e.g. https://school.instructure.com; separated by commas or spaces"))

    def clean_frame_origins(self) -> list[str]:
        return _words(self.cleaned_data["frame_origins"])

    def clean_deployment_ids(self) -> list[str]:
        return _words(self.cleaned_data["deployment_ids"])


class PlatformEditForm(PlatformForm):
    """Issuer and client id name the LMS's users; they stay (remove the registration and register anew)."""

    issuer = None
    client_id = None

    @classmethod
    def initial_of(cls, platform: Platform) -> dict:
        return {"name": platform.name, "deployment_ids": " ".join(platform.deployment_ids),
                "auth_login_url": platform.auth_login_url, "auth_token_url": platform.auth_token_url,
                "key_set_url": platform.key_set_url, "auth_audience": platform.auth_audience,
                "frame_origins": " ".join(platform.frame_origins)}


def _add_errors(form: forms.Form, exc: ValidationError) -> None:
    """The service's errors on the form: by field where the form has it, else above the form."""
    for field, errors in (exc.error_dict.items() if hasattr(exc, "error_dict") else [(None, exc.error_list)]):
        form.add_error(field if field in form.fields else None, errors)


@login_required
@require_http_methods(["GET", "POST"])
def platform_list(request: HttpRequest) -> HttpResponse:
    selectors.lms_manager_check(request.user)
    form = PlatformForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            platform = platform_register(created_by=request.user, **form.cleaned_data)
        except PlatformTaken as exc:
            form.add_error(None, exc.message)
        except ValidationError as exc:
            _add_errors(form, exc)
        else:
            messages.success(request, _("%(name)s is registered.") % {"name": platform.name})
            return redirect("lti:platforms")
    return render(request, "lti/platforms.html", {"form": form, "platforms": selectors.platforms_of(user=request.user),
                                                  "urls": tool_urls(request)})


@login_required
@require_http_methods(["GET", "POST"])
def platform_edit(request: HttpRequest, platform_id: int) -> HttpResponse:
    platform = selectors.platform_of_manager(user=request.user, platform_id=platform_id)
    form = PlatformEditForm(request.POST or None, initial=PlatformEditForm.initial_of(platform))
    if request.method == "POST" and form.is_valid():
        try:
            platform = platform_update(user=request.user, platform=platform, **form.cleaned_data)
        except ValidationError as exc:
            _add_errors(form, exc)
        else:
            messages.success(request, _("%(name)s is saved.") % {"name": platform.name})
            return redirect("lti:platforms")
    return render(request, "lti/platform_edit.html", {"form": form, "platform": platform})


@login_required
@require_POST
def platform_remove(request: HttpRequest, platform_id: int) -> HttpResponse:
    platform = selectors.platform_of_manager(user=request.user, platform_id=platform_id)
    platform_delete(user=request.user, platform=platform)
    messages.success(request, _("%(name)s is no longer registered.") % {"name": platform.name})
    return redirect("lti:platforms")
