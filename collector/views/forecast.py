"""The round page's "Train the survival forecast" button (issue 29 §1)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from collector.selectors.rounds import round_for_manager
from collector.services.forecast import forecast_job_start


@login_required
@require_POST
def round_forecast_train(request: HttpRequest, round_id: int) -> HttpResponse:
    """Queue the training of the course's survival forecast on every scored question so far."""
    round_ = round_for_manager(user=request.user, round_id=round_id)
    forecast_job_start(round_=round_, user=request.user)
    messages.success(request, _("Training of the survival forecast is queued; its progress is shown below."))
    return redirect(f"{redirect('collector:round_detail', round_id=round_.pk).url}#survival-forecast")
