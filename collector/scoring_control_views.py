"""The round page's cancel and resume buttons of a scoring run (``scoring_control``)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from collector import job_selectors, scoring, scoring_control

# Messages shown in the scoring section (not at the top), which the page opens at.
SCORING_TAG = "scoring-message"


def back_to_scoring(round_id: int) -> HttpResponse:
    """The round page scrolled to its scoring section, where the progress bar and the message are."""
    response = redirect("collector:round_detail", round_id=round_id)
    response["Location"] += "#scoring"
    return response


@login_required
@require_POST
def scoring_run_cancel(request: HttpRequest, run_id: int) -> HttpResponse:
    run = job_selectors.scoring_run_for_manager(user=request.user, run_id=run_id)
    try:
        scoring_control.scoring_cancel(run_id=run.pk, user=request.user)
    except scoring.ScoringRefused as error:
        messages.error(request, error.message, extra_tags=SCORING_TAG)
    else:
        messages.success(request, f"Run {run.pk} cancelled. Its finished folds are kept; resume it to score the rest.",
                         extra_tags=SCORING_TAG)
    return back_to_scoring(run.round_id)


@login_required
@require_POST
def scoring_run_resume(request: HttpRequest, run_id: int) -> HttpResponse:
    run = job_selectors.scoring_run_for_manager(user=request.user, run_id=run_id)
    try:
        scoring_control.scoring_resume(run_id=run.pk, user=request.user)
    except scoring.ScoringRefused as error:
        messages.error(request, error.message, extra_tags=SCORING_TAG)
    else:
        messages.success(request, f"Run {run.pk} queued again; only its unfinished folds are trained.",
                         extra_tags=SCORING_TAG)
    return back_to_scoring(run.round_id)
