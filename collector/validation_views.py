"""HTML pages of the quality loop: the validation queue, the owner's review queue and question
review, appeals, and the round's quality report with its settings.

As in ``views.py``: each view validates, calls one service or selector, renders; the rules
and access checks live in ``validation_services`` / ``validation_selectors``.
"""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.roles import not_for_crowdworkers
from collector import answer_only, coach, selectors, validation_selectors, validation_services
from collector.quality_presentation import accuracy_chart, coach_chart, review_item, workload_chart
from collector.validation import first_message
from collector.validation_forms import (
    AppealDecisionForm,
    AppealForm,
    QuestionEditForm,
    ReviewDecisionForm,
    ReviewFilterForm,
    ValidationForm,
)
from core.charts import chart_view

REVIEW_PAGE_SIZE = 20
SKIP_SESSION_KEY = "validation_skip"


def _round_filter(request: HttpRequest):
    """The ``?round=`` the validator chose, if it is one they may validate."""
    value = request.GET.get("round") or request.POST.get("round") or ""
    rounds = validation_selectors.rounds_to_validate(user=request.user)
    return next((r for r in rounds if str(r.pk) == value), None), rounds


@login_required
@not_for_crowdworkers
@require_http_methods(["GET", "POST"])
def validate(request: HttpRequest) -> HttpResponse:
    """One blind question at a time: completions shuffled, the model's answer and author hidden."""
    round_, rounds = _round_filter(request)
    skipped = tuple(request.session.get(SKIP_SESSION_KEY, []))
    if request.method == "GET" and request.GET.get("skip", "").isdigit():
        request.session[SKIP_SESSION_KEY] = [*skipped, int(request.GET["skip"])][-200:]
        return redirect(f"{reverse('collector:validate')}?round={round_.pk if round_ else ''}")
    question, form = None, None
    if request.method == "POST":
        question = validation_selectors.question_from_token(token=request.POST.get("token", ""), validator=request.user)
        if question is not None:
            blind = validation_selectors.blind_question(question=question, validator=request.user,
                                                        token=request.POST.get("token"))
            form = ValidationForm(request.POST, blind=blind)
            if form.is_valid():
                try:
                    validation_services.validation_submit(validator=request.user, **form.service_kwargs())
                except ValidationError as error:
                    if not hasattr(error, "error_dict"):  # decided meanwhile, or validated twice: move on
                        messages.info(request, first_message(error))
                        return redirect(request.get_full_path())
                    form.add_service_errors(error)
                else:
                    messages.success(request, "Thank you, your answer is saved. Here is the next question.")
                    return redirect(request.get_full_path())
        else:
            messages.error(request, "That form was too old or not yours; here is a fresh question.")
            return redirect(request.get_full_path())
    if form is None:
        question = validation_selectors.validation_next(user=request.user, round_=round_, skip=skipped)
        if question is None and skipped:
            request.session[SKIP_SESSION_KEY] = []  # the skipped ones come back once all else is done
            question = validation_selectors.validation_next(user=request.user, round_=round_)
        if question is not None:
            form = ValidationForm(blind=validation_selectors.blind_question(question=question, validator=request.user))
    context = {
        "form": form, "question": question, "rounds": rounds, "round": round_,
        "done": validation_selectors.validations_done(user=request.user),
        "remaining": validation_selectors.validation_queue(user=request.user, round_=round_).count(),
    }
    return render(request, "collector/validate.html", context)


@login_required
@require_safe
def review_queue(request: HttpRequest, round_id: int) -> HttpResponse:
    """The owner's queue: questions in review or appealed, with the evidence to decide."""
    round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
    filters = ReviewFilterForm(request.GET)
    status = filters.cleaned_data.get("status") if filters.is_valid() else ""
    questions = validation_selectors.review_queue(user=request.user, round_=round_, status=status or None)
    page = Paginator(questions, REVIEW_PAGE_SIZE).get_page(request.GET.get("page"))
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
    question = validation_selectors.question_for_reviewer(user=request.user, question_id=question_id)
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
                validation_services.question_review_decide(reviewer=request.user, question_id=question.pk, **kwargs)
            except ValidationError as error:
                form.add_service_errors(error)
            else:
                messages.success(request, f"Question #{question.pk}: {_decision_words(kwargs['action'])}.")
                return redirect(back)
    context = {"item": review_item(question), "decision_form": decision_form, "edit_form": edit_form, "next": back,
               "round": question.round, "appeal_form": AppealDecisionForm()}
    return render(request, "collector/question_review.html", context)


def _decision_words(action: str) -> str:
    return {"accept": "accepted", "reject": "rejected; the author sees your reason", "edit": "edited and accepted"}[action]


@login_required
@require_POST
def appeal_submit(request: HttpRequest, question_id: int) -> HttpResponse:
    form = AppealForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"Appeal not sent. {' '.join(form.errors.get('message', []))}")
        return redirect("collector:dashboard")
    try:
        validation_services.appeal_submit(author=request.user, question_id=question_id, **form.cleaned_data)
    except ValidationError as error:
        messages.error(request, f"Appeal not sent. {first_message(error)}")
    else:
        messages.success(request, "Your appeal is sent; the instructor will decide. You see the answer here.")
    return redirect("collector:dashboard")


@login_required
@require_POST
def appeal_decide(request: HttpRequest, appeal_id: int) -> HttpResponse:
    form = AppealDecisionForm(request.POST)
    fallback = reverse("collector:course_list")
    if not form.is_valid():
        messages.error(request, "Appeal not decided: choose to uphold or deny it.")
        return redirect(_next_url(request, fallback))
    uphold = form.cleaned_data["decision"] == "uphold"
    try:
        appeal = validation_services.appeal_decide(reviewer=request.user, appeal_id=appeal_id, uphold=uphold,
                                                   response=form.cleaned_data["response"])
    except ValidationError as error:
        messages.error(request, f"Appeal not decided. {first_message(error)}")
    else:
        outcome = "upheld: the question is accepted" if uphold else "denied: the question stays rejected"
        messages.success(request, f"Appeal on question #{appeal.question_id} {outcome}.")
    return redirect(_next_url(request, fallback))


@login_required
@require_safe
def round_quality(request: HttpRequest, round_id: int) -> HttpResponse:
    """The round's quality report (accuracy, agreement, validators, coach); its settings are on
    the round settings page with all the others."""
    round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
    report = validation_selectors.round_quality_report(round_=round_)
    context = {
        "round": round_, "report": report, "notes": coach.coach_notes(round_=round_),
        **{f"{name}_chart": chart_view(f"{name}-chart", chart) if chart else None
           for name, chart in (("accuracy", accuracy_chart(report)), ("workload", workload_chart(report)),
                               ("coach", coach_chart(report)))},
    }
    return render(request, "collector/round_quality.html", context)


@login_required
@require_POST
def round_answer_only_model(request: HttpRequest, round_id: int) -> HttpResponse:
    """Queue the training of the round's answer-only model for the coach."""
    round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
    try:
        answer_only.round_answer_only_model_schedule(round_=round_)
    except ValidationError as error:
        messages.error(request, f"Training not started. {first_message(error)}")
    else:
        messages.success(request, "Training of the answer-only model is queued; a worker runs it (a few minutes). "
                         "The coach uses it as soon as it is registered.")
    return redirect("collector:round_quality", round_id=round_.pk)

