"""The round page's scoring buttons: start a cross-validation (or answer-only) run, cancel and resume one.

Their messages are shown in the page's scoring section (``SCORING_TAG``), which the page opens at.
"""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from collector.cleaning import first_message
from collector.forms.scoring import ScoringStartForm
from collector.selectors.rounds import round_for_manager
from collector.selectors.scoring import scoring_run_for_manager
from collector.services.scoring import ScoringRefused, scoring_cancel, scoring_resume, scoring_start
from core.pages import form_refused

# Messages shown in the scoring section (not at the top), which the page opens at.
SCORING_TAG = "scoring-message"


def back_to_scoring(round_id: int) -> HttpResponse:
    """The round page scrolled to its scoring section, where the progress bar and the message are."""
    response = redirect("collector:round_detail", round_id=round_id)
    response["Location"] += "#scoring"
    return response


@login_required
@require_POST
def round_scoring_start(request: HttpRequest, round_id: int) -> HttpResponse:
    """Queue cross-validation scoring or the answer-only baseline of the round."""
    round_ = round_for_manager(user=request.user, round_id=round_id)
    # The page opens at the scoring section again, its message there beside the progress bar.
    form = ScoringStartForm(request.POST)
    if form_refused(request, form, _("Scoring not started."), extra_tags=SCORING_TAG):
        return back_to_scoring(round_.pk)
    try:
        run = scoring_start(round_=round_, user=request.user, **form.cleaned_data)
    except ScoringRefused as error:
        messages.error(request, error.message, extra_tags=SCORING_TAG)
    except ValidationError as error:
        messages.error(request, _("Scoring not started. %(reason)s") % {"reason": first_message(error)}, extra_tags=SCORING_TAG)
    else:
        messages.success(
            request, _("%(kind)s run %(id)s of %(folds)s folds queued; a worker will run it. Its progress shows below.")
            % {"kind": run.get_kind_display(), "id": run.pk, "folds": run.folds}, extra_tags=SCORING_TAG,
        )
    return back_to_scoring(round_.pk)


def _run_control(request: HttpRequest, run_id: int, control, done: str) -> HttpResponse:
    """Cancel or resume (``control``) the run and say so in the scoring section; ``done`` is the
    message on success, with ``%(id)s`` for the run's id."""
    run = scoring_run_for_manager(user=request.user, run_id=run_id)
    try:
        control(run_id=run.pk, user=request.user)
    except ScoringRefused as error:
        messages.error(request, error.message, extra_tags=SCORING_TAG)
    else:
        messages.success(request, done % {"id": run.pk}, extra_tags=SCORING_TAG)
    return back_to_scoring(run.round_id)


@login_required
@require_POST
def scoring_run_cancel(request: HttpRequest, run_id: int) -> HttpResponse:
    return _run_control(request, run_id, scoring_cancel,
                        _("Run %(id)s cancelled. Its finished folds are kept; resume it to score the rest."))


@login_required
@require_POST
def scoring_run_resume(request: HttpRequest, run_id: int) -> HttpResponse:
    return _run_control(request, run_id, scoring_resume,
                        _("Run %(id)s queued again; only its unfinished folds are trained."))
