"""The quality page's button that trains the round's answer-only model for the artifact coach."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from collector.cleaning import first_message
from collector.selectors.rounds import round_for_manager
from collector.services.coach import round_answer_only_model_schedule


@login_required
@require_POST
def round_answer_only_model(request: HttpRequest, round_id: int) -> HttpResponse:
    """Queue the training of the round's answer-only model for the coach."""
    round_ = round_for_manager(user=request.user, round_id=round_id)
    try:
        round_answer_only_model_schedule(round_=round_, user=request.user)
    except ValidationError as error:
        messages.error(request, _("Training not started. %(reason)s") % {"reason": first_message(error)})
    else:
        messages.success(request, _("Training of the answer-only model is queued; a worker runs it (a few minutes). "
                                 "The coach uses it as soon as it is registered."))
    return redirect("collector:round_quality", round_id=round_.pk)
