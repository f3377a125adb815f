"""The blind validation page: one question at a time, completions shuffled, the model's answer and author hidden."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.roles import not_for_crowdworkers
from collector.cleaning import first_message
from collector.forms.validation import ValidationForm
from collector.models import Round
from collector.selectors.validation import (
    blind_question,
    question_from_token,
    rounds_to_validate,
    validation_next,
    validation_queue,
    validations_done,
)
from collector.services.validation import validation_submit
from courses.selectors import user_validates_anytime

SKIP_SESSION_KEY = "validation_skip"
PROMISING = "promising"


def _promising_first(request: HttpRequest, round_: Round | None) -> bool:
    """``?order=promising``: the course's staff see the round's best item quality first."""
    return (request.GET.get("order") == PROMISING and round_ is not None
            and user_validates_anytime(user=request.user, course=round_.course))


def _round_filter(request: HttpRequest):
    """The ``?round=`` the validator chose, if it is one they may validate."""
    value = request.GET.get("round") or request.POST.get("round") or ""
    rounds = rounds_to_validate(user=request.user)
    return next((r for r in rounds if str(r.pk) == value), None), rounds


@login_required
@not_for_crowdworkers
@require_http_methods(["GET", "POST"])
def validate(request: HttpRequest) -> HttpResponse:
    """One blind question at a time: completions shuffled, the model's answer and author hidden."""
    round_, rounds = _round_filter(request)
    promising = _promising_first(request, round_)
    skipped = tuple(request.session.get(SKIP_SESSION_KEY, []))
    if request.method == "GET" and request.GET.get("skip", "").isdigit():
        request.session[SKIP_SESSION_KEY] = [*skipped, int(request.GET["skip"])][-200:]
        order = f"&order={PROMISING}" if promising else ""
        return redirect(f"{reverse('collector:validate')}?round={round_.pk if round_ else ''}{order}")
    question, form = None, None
    if request.method == "POST":
        question = question_from_token(token=request.POST.get("token", ""), validator=request.user)
        if question is not None:
            blind = blind_question(question=question, validator=request.user,
                                                        token=request.POST.get("token"))
            form = ValidationForm(request.POST, blind=blind)
            if form.is_valid():
                try:
                    validation_submit(validator=request.user, **form.service_kwargs())
                except ValidationError as error:
                    if not hasattr(error, "error_dict"):  # decided meanwhile, or validated twice: move on
                        messages.info(request, first_message(error))
                        return redirect(request.get_full_path())
                    form.add_service_errors(error)
                else:
                    messages.success(request, _("Thank you, your answer is saved. Here is the next question."))
                    return redirect(request.get_full_path())
        else:
            messages.error(request, _("That form was too old or not yours; here is a fresh question."))
            return redirect(request.get_full_path())
    if form is None:
        question = validation_next(user=request.user, round_=round_, skip=skipped, promising_first=promising)
        if question is None and skipped:
            request.session[SKIP_SESSION_KEY] = []  # the skipped ones come back once all else is done
            question = validation_next(user=request.user, round_=round_, promising_first=promising)
        if question is not None:
            form = ValidationForm(blind=blind_question(question=question, validator=request.user))
    context = {
        "form": form, "question": question, "rounds": rounds, "round": round_, "promising": promising,
        "may_order": round_ is not None and user_validates_anytime(user=request.user, course=round_.course),
        "done": validations_done(user=request.user),
        "remaining": validation_queue(user=request.user, round_=round_).count(),
    }
    return render(request, "collector/validate.html", context)
