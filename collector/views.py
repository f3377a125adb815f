"""HTML pages of the collector: each view validates, calls one service or selector, renders.

Access rules live in the selectors and services: they raise ``AccessError`` (a
``PermissionDenied``), which Django turns into ``templates/403.html`` showing its message.
"""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import (
    require_http_methods,
    require_POST,
    require_safe,
)

from accounts.roles import not_for_crowdworkers
from collector import grades, round_settings, scoring, selectors, services, training_jobs, worker_hardware
from collector.author_selectors import author_round_tally
from collector.forms import (
    GradesExportForm,
    ModelTrainForm,
    QuestionFilterForm,
    QuestionForm,
    RoundCreateForm,
    RoundSettingsForm,
    ScoringStartForm,
)
from collector.models import Round
from collector.presentation import (
    category_bars,
    question_view,
    scoring_cards,
    scoring_run_payload,
    submit_message,
    training_job_payload,
)
from collector.round_settings_all import round_settings_save
from collector.scoring_control_views import SCORING_TAG, back_to_scoring
from collector.validation import first_message
from collector.validation_forms import QualitySettingsForm
from courses.selectors import course_enrollments, course_for_manager
from modelhub.selectors import live_model_choices, model_version_get

DASHBOARD_PAGE_SIZE = 25
ROUND_TABLE_PAGE_SIZE = 25


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Send everyone to the page of their role."""
    user = request.user
    if not user.is_authenticated:
        return redirect("accounts:login")
    if user.is_instructor:
        return redirect("inbox:inbox")
    if user.is_student:
        return redirect("collector:dashboard")
    return redirect("collector:crowd_home")


@login_required
@require_safe
def crowd_home(request: HttpRequest) -> HttpResponse:
    # Crowdworkers' tasks are span annotation (the annotation app).
    return redirect("annotation:task_list")


@login_required
@not_for_crowdworkers
@require_safe
def dashboard(request: HttpRequest) -> HttpResponse:
    """A student's open rounds and their own questions with the model's answers and credit."""
    # Grouped by round (newest round first) so the template can regroup one page at a time.
    questions = selectors.questions_of_author(user=request.user).order_by(
        "-round__created_at", "round_id", "-created_at", "-id"
    )
    page = Paginator(questions, DASHBOARD_PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "open_rounds": selectors.rounds_open_for_author(user=request.user),
        "page_obj": page,
        "rows": [question_view(question) for question in page],
        "total_credit": selectors.author_credit_total(user=request.user),
    }
    return render(request, "collector/dashboard.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def round_write(request: HttpRequest, round_id: int) -> HttpResponse:
    """The authoring page; the websocket gives live feedback, this POST stores the question."""
    round_ = selectors.round_for_author(user=request.user, round_id=round_id)
    form = QuestionForm(request.POST or None, round_=round_)
    if request.method == "POST" and form.is_valid():
        try:
            question = services.question_submit(user=request.user, round_id=round_.pk, **form.service_kwargs())
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            # The extra tag tells author.js that the saved draft can be forgotten.
            messages.success(request, submit_message(question), extra_tags="question-saved")
            return redirect("collector:round_write", round_id=round_.pk)
    context = {"round": round_, "form": form, "live_model": round_.live_model,
               "tally": author_round_tally(user=request.user, round_=round_)}
    return render(request, "collector/round_write.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def course_detail(request: HttpRequest, course_id: int) -> HttpResponse:
    course = course_for_manager(user=request.user, course_id=course_id)
    form = RoundCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            round_ = services.round_create(course=course, **form.cleaned_data)
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(request, f"Round “{round_}” created.")
            return redirect("collector:round_detail", round_id=round_.pk)
    context = {
        "course": course,
        "enrollments": course_enrollments(course=course),
        "rounds": selectors.course_rounds(course=course),
        "form": form,
    }
    return render(request, "collector/course_detail.html", context)


@login_required
@require_safe
def round_detail(request: HttpRequest, round_id: int) -> HttpResponse:
    """The instructor's view of a round: stats, the live model and a filterable question table."""
    round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
    authors = [(author.pk, author.username) for author in selectors.round_authors(round_=round_)]
    filters = QuestionFilterForm(request.GET, authors=authors)
    questions = selectors.round_questions(round_=round_, **filters.selector_kwargs())
    page = Paginator(questions, ROUND_TABLE_PAGE_SIZE).get_page(request.GET.get("page"))
    stats = selectors.round_stats(round_=round_)
    context = {
        "round": round_,
        "stats": stats,
        "category_bars": category_bars(stats["categories"]),
        "filters": filters,
        "page_obj": page,
        "rows": [question_view(question) for question in page],
        "scoring_cards": scoring_cards([scoring_run_payload(run) for run in selectors.scoring_runs_latest(round_=round_)]),
        "train_form": ModelTrainForm(rounds=_round_choices(round_)),
        "training_jobs": [training_job_payload(job) for job in selectors.training_jobs_latest(round_=round_)],
        "grades_form": GradesExportForm(),
    }
    return render(request, "collector/round_detail.html", context)


def _round_choices(round_: Round) -> list[tuple[int, str]]:
    return [(r.pk, f"{r} ({r.name})") for r in selectors.course_rounds(course=round_.course)]


def _back_to_round(round_: Round) -> HttpResponse:
    return redirect("collector:round_detail", round_id=round_.pk)


def _form_errors(form) -> str:
    """A form's errors on one line, each after its field's label (for a flash message)."""
    parts = []
    for field, errors in form.errors.items():
        label = (form.fields[field].label or field.replace("_", " ").capitalize()) if field in form.fields else ""
        parts.append(f"{label}: {' '.join(errors)}" if label else " ".join(errors))
    return " ".join(parts)


@login_required
@require_POST
def round_scoring_start(request: HttpRequest, round_id: int) -> HttpResponse:
    """Queue cross-validation scoring or the answer-only baseline of the round."""
    round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
    # The page opens at the scoring section again, its message there beside the progress bar.
    form = ScoringStartForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"Scoring not started. {_form_errors(form)}", extra_tags=SCORING_TAG)
        return back_to_scoring(round_.pk)
    try:
        run = scoring.scoring_start(round_=round_, user=request.user, **form.cleaned_data)
    except scoring.ScoringRefused as error:
        messages.error(request, error.message, extra_tags=SCORING_TAG)
    except ValidationError as error:
        messages.error(request, f"Scoring not started. {first_message(error)}", extra_tags=SCORING_TAG)
    else:
        messages.success(
            request, f"{run.get_kind_display()} run {run.pk} of {run.folds} folds queued; a worker will run it. "
            "Its progress shows below.", extra_tags=SCORING_TAG,
        )
    return back_to_scoring(round_.pk)


@login_required
@require_POST
def round_model_train(request: HttpRequest, round_id: int) -> HttpResponse:
    """Queue the training of a new live model on every question of the course so far."""
    round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
    form = ModelTrainForm(request.POST, rounds=_round_choices(round_))
    if not form.is_valid():
        messages.error(request, f"Training not started. {_form_errors(form)}")
        return _back_to_round(round_)
    live_id = form.cleaned_data["make_live_round"]
    live_round = selectors.round_for_manager(user=request.user, round_id=live_id) if live_id else None
    try:
        training_jobs.training_job_start(round_=round_, name=form.cleaned_data["name"], make_live_round=live_round,
                                         user=request.user)
    except ValidationError as error:
        messages.error(request, f"Training not started. {first_message(error)}")
    else:
        then = f" and then becomes the live model of round {live_round}" if live_round else ""
        messages.success(
            request, f"Training of model “{form.cleaned_data['name']}” on all questions so far is queued; "
            f"a worker runs it (this can take several minutes; its progress is shown below){then}."
        )
    return _back_to_round(round_)


@login_required
@require_safe
def round_grades_download(request: HttpRequest, round_id: int) -> HttpResponse:
    """One row per enrolled student as a Canvas, Moodle or plain CSV file."""
    round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
    form = GradesExportForm(request.GET)
    if not form.is_valid():
        messages.error(request, f"No grades exported. {_form_errors(form)}")
        return _back_to_round(round_)
    fmt, points_possible = form.cleaned_data["format"], form.cleaned_data["points_possible"]
    rows = grades.round_grades(round_=round_, points_possible=points_possible)
    response = HttpResponse(
        grades.grades_csv(round_=round_, rows=rows, fmt=fmt, points_possible=points_possible),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="stumper-{round_.name}-grades-{fmt}.csv"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def round_settings_edit(request: HttpRequest, round_id: int) -> HttpResponse:
    """Change a round's dates, credit weights, live model and scoring settings."""
    round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
    choices = [(m.pk, f"{m.name} ({m.get_kind_display()})") for m in live_model_choices()]
    initial = {
        **{name: getattr(round_, name) for name in ("title", "instructions", "opens_at", "closes_at", "weight_live",
                                                     "weight_cv", "base_checkpoint")},
        "live_model": round_.live_model_id, **round_settings.round_scoring_settings(round_=round_),
    }
    form = RoundSettingsForm(request.POST or None, initial=initial, model_choices=choices)
    # Validation and coach settings are part of the same form; a client that leaves them out keeps them.
    quality_posted = request.method == "POST" and "validations_required" in request.POST
    quality = QualitySettingsForm.for_round(round_, request.POST if quality_posted else None)
    if request.method == "POST" and form.is_valid() and (not quality_posted or quality.is_valid()):
        kwargs = form.service_kwargs()
        try:
            round_settings_save(round_=round_, **{**kwargs, "live_model": model_version_get(
                model_id=kwargs["live_model"])}, quality=quality.cleaned_data if quality_posted else None)
        except ValidationError as error:
            on_quality = quality_posted and set(getattr(error, "error_dict", {})) & set(quality.fields)
            (quality if on_quality else form).add_service_errors(error)
        else:
            messages.success(request, "Round settings saved. New scoring settings apply to the next scoring run; "
                             "authors see new coach settings when they reconnect.")
            return _back_to_round(round_)
    note = worker_hardware.precision_note(setting=round_settings.round_scoring_settings(round_=round_)["bf16"],
                                          reports=worker_hardware.worker_hardware_latest())
    return render(request, "collector/round_settings.html",
                  {"round": round_, "form": form, "quality": quality, "precision": note})
