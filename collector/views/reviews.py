"""HTML pages of the owner's review and of appeals: the review queue, one question's review, an
author's appeal and the owner's decision on it.

Each view validates, calls one service or selector, renders; the rules and access checks live in
``services/reviews.py`` and ``selectors/reviews.py`` (imported as modules: their functions share the
views' names).
"""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

import collector.selectors.reviews as review_selectors
import collector.services.reviews as review_services
from collector.cleaning import first_message
from collector.forms.reviews import (
    AppealDecisionForm,
    AppealForm,
    QuestionEditForm,
    ReviewDecisionForm,
    ReviewFilterForm,
)
from collector.presentation.reviews import review_item
from collector.selectors.rounds import round_for_manager
from core.pages import paginate

REVIEW_PAGE_SIZE = 20


@login_required
@require_safe
def review_queue(request: HttpRequest, round_id: int) -> HttpResponse:
    """The owner's queue: questions in review or appealed, with the evidence to decide."""
    round_ = round_for_manager(user=request.user, round_id=round_id)
    filters = ReviewFilterForm(request.GET)
    questions = review_selectors.review_queue(user=request.user, round_=round_,
                                              status=filters.values().get("status") or None)
    page = paginate(request, questions, REVIEW_PAGE_SIZE)
    context = {
        "round": round_, "filters": filters, "page_obj": page, "items": [review_item(q) for q in page],
        "decision_form": ReviewDecisionForm(), "appeal_form": AppealDecisionForm(),
    }
    return render(request, "collector/review_queue.html", context)


def _next_url(request: HttpRequest, fallback: str) -> str:
    url = request.POST.get("next") or request.GET.get("next") or ""
    if url and url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}):
        return url
    return fallback


@login_required
@require_http_methods(["GET", "POST"])
def question_review(request: HttpRequest, question_id: int) -> HttpResponse:
    """One question for its owner: accept, reject with a reason, or edit and accept."""
    question = review_selectors.question_for_reviewer(user=request.user, question_id=question_id)
    back = _next_url(request, reverse("collector:review_queue", args=[question.round_id]))
    decision_form, edit_form = ReviewDecisionForm(), QuestionEditForm(question=question)
    if request.method == "POST":
        if request.POST.get("action") == "edit":
            edit_form = QuestionEditForm(request.POST, question=question)
            valid, form, kwargs = edit_form.is_valid(), edit_form, {}
            if valid:
                kwargs = {"action": "edit", **edit_form.service_kwargs()}
        else:
            decision_form = ReviewDecisionForm(request.POST)
            valid, form = decision_form.is_valid(), decision_form
            kwargs = decision_form.cleaned_data if valid else {}
        if valid:
            try:
                review_services.question_review_decide(reviewer=request.user, question_id=question.pk, **kwargs)
            except ValidationError as error:
                form.add_service_errors(error)
            else:
                messages.success(request, _decision_message(kwargs["action"], question.pk))
                return redirect(back)
    context = {"item": review_item(question), "decision_form": decision_form, "edit_form": edit_form, "next": back,
               "round": question.round, "appeal_form": AppealDecisionForm()}
    return render(request, "collector/question_review.html", context)


def _decision_message(action: str, question_id: int) -> str:
    message = {"accept": _("Question #%(id)s: accepted."),
               "reject": _("Question #%(id)s: rejected; the author sees your reason."),
               "edit": _("Question #%(id)s: edited and accepted.")}[action]
    return message % {"id": question_id}


@login_required
@require_POST
def appeal_submit(request: HttpRequest, question_id: int) -> HttpResponse:
    form = AppealForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Appeal not sent. %(reason)s") % {"reason": " ".join(form.errors.get("message", []))})
        return redirect("collector:dashboard")
    try:
        review_services.appeal_submit(author=request.user, question_id=question_id, **form.cleaned_data)
    except ValidationError as error:
        messages.error(request, _("Appeal not sent. %(reason)s") % {"reason": first_message(error)})
    else:
        messages.success(request, _("Your appeal is sent; the instructor will decide. You see the answer here."))
    return redirect("collector:dashboard")


@login_required
@require_POST
def appeal_decide(request: HttpRequest, appeal_id: int) -> HttpResponse:
    form = AppealDecisionForm(request.POST)
    fallback = reverse("courses:course_list")
    if not form.is_valid():
        messages.error(request, _("Appeal not decided: choose to uphold or deny it."))
        return redirect(_next_url(request, fallback))
    uphold = form.cleaned_data["decision"] == "uphold"
    try:
        appeal = review_services.appeal_decide(reviewer=request.user, appeal_id=appeal_id, uphold=uphold,
                                                   response=form.cleaned_data["response"])
    except ValidationError as error:
        messages.error(request, _("Appeal not decided. %(reason)s") % {"reason": first_message(error)})
    else:
        outcome = (_("Appeal on question #%(id)s upheld: the question is accepted.") if uphold
                   else _("Appeal on question #%(id)s denied: the question stays rejected."))
        messages.success(request, outcome % {"id": appeal.question_id})
    return redirect(_next_url(request, fallback))
