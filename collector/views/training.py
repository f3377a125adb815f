"""The round page's "Train a new live model" button."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from collector.cleaning import first_message
from collector.forms.training import ModelTrainForm
from collector.selectors.rounds import round_for_manager
from collector.services.training import training_job_start
from collector.views.rounds import back_to_round, round_choices
from core.pages import form_refused


@login_required
@require_POST
def round_model_train(request: HttpRequest, round_id: int) -> HttpResponse:
    """Queue the training of a new live model on every question of the course so far."""
    round_ = round_for_manager(user=request.user, round_id=round_id)
    form = ModelTrainForm(request.POST, rounds=round_choices(round_))
    if form_refused(request, form, _("Training not started.")):
        return back_to_round(round_)
    live_id = form.cleaned_data["make_live_round"]
    live_round = round_for_manager(user=request.user, round_id=live_id) if live_id else None
    try:
        training_job_start(round_=round_, name=form.cleaned_data["name"], make_live_round=live_round,
                                         user=request.user)
    except ValidationError as error:
        messages.error(request, _("Training not started. %(reason)s") % {"reason": first_message(error)})
    else:
        if live_round:
            message = _("Training of model “%(name)s” on all questions so far is queued; a worker runs it (this can "
                        "take several minutes; its progress is shown below) and then becomes the live model of round "
                        "%(round)s.")
        else:
            message = _("Training of model “%(name)s” on all questions so far is queued; a worker runs it (this can "
                        "take several minutes; its progress is shown below).")
        messages.success(request, message % {"name": form.cleaned_data["name"], "round": live_round})
    return back_to_round(round_)
