"""The round settings page: every setting of a round in one form, saved all or nothing."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from collector.forms.round_settings import QualitySettingsForm, RoundSettingsForm
from collector.presentation.hardware import precision_note
from collector.selectors.hardware import worker_hardware_latest
from collector.selectors.rounds import round_for_manager
from collector.services.round_settings import round_scoring_settings, round_settings_check, round_settings_save
from collector.views.rounds import back_to_round
from modelhub.selectors import live_model_choices, model_version_get


@login_required
@require_http_methods(["GET", "POST"])
def round_settings_edit(request: HttpRequest, round_id: int) -> HttpResponse:
    """Change a round's dates, credit weights, live model and scoring settings."""
    round_ = round_for_manager(user=request.user, round_id=round_id)
    # The models this instructor may serve (models_usable_by), and the round's current one, which may stay.
    usable = list(live_model_choices(user=request.user, course_id=round_.course_id))
    current = [round_.live_model] if round_.live_model_id and round_.live_model not in usable else []
    choices = [(m.pk, f"{m.name} ({m.get_kind_display()})") for m in current + usable]
    initial = {
        **{name: getattr(round_, name) for name in ("title", "instructions", "opens_at", "closes_at", "weight_live",
                                                     "weight_cv", "base_checkpoint")},
        "live_model": round_.live_model_id, **round_scoring_settings(round_=round_),
    }
    form = RoundSettingsForm(request.POST or None, initial=initial, model_choices=choices)
    # Validation and coach settings are part of the same form; a client that leaves them out keeps them.
    quality_posted = request.method == "POST" and "validations_required" in request.POST
    quality = QualitySettingsForm.for_round(round_, request.POST if quality_posted else None)
    readable = form.is_valid() if request.method == "POST" else False
    if readable and (not quality_posted or quality.is_valid()):
        kwargs = form.service_kwargs()
        try:
            round_settings_save(round_=round_, **{**kwargs, "live_model": model_version_get(
                model_id=kwargs["live_model"])}, quality=quality.cleaned_data if quality_posted else None,
                user=request.user)
        except ValidationError as error:
            on_quality = quality_posted and set(getattr(error, "error_dict", {})) & set(quality.fields)
            (quality if on_quality else form).add_service_errors(error)
        else:
            messages.success(request, _("Round settings saved. New scoring settings apply to the next scoring run; "
                                       "authors see new coach settings when they reconnect."))
            return back_to_round(round_)
    elif request.method == "POST":
        # Refused by the form: the service's checks too, on what it could read, so every problem shows at once.
        kwargs = form.service_kwargs()
        live = kwargs.pop("live_model", None)
        try:
            round_settings_check(round_=round_, live_model=model_version_get(model_id=live) if live else None,
                                 user=request.user, skip=set(form.errors), **kwargs)
        except ValidationError as error:
            form.add_service_errors(error)
    note = precision_note(setting=round_scoring_settings(round_=round_)["bf16"],
                                          reports=worker_hardware_latest())
    return render(request, "collector/round_settings.html",
                  {"round": round_, "form": form, "quality": quality, "precision": note})
