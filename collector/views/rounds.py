"""HTML pages of rounds: a course's page with its rounds (and a form to create one) and a round's
page for its instructors (stats, the live model, the question table, scoring, training, grades).

Each view validates, calls one service or selector, renders. Access rules live in the selectors
and services: they raise ``AccessError`` (a ``PermissionDenied``), which Django turns into
``templates/403.html`` showing its message. The round page's buttons post to the views of their
concern (``views/scoring.py``, ``training.py``, ``grades.py``), which send the instructor back here.
"""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from collector.forms.grades import GradesExportForm
from collector.forms.rounds import QuestionFilterForm, RoundCreateForm
from collector.forms.training import ModelTrainForm
from collector.models import Round
from collector.presentation.forecast import forecast_is_shown, forecast_job_card
from collector.presentation.grades import grades_left_out
from collector.presentation.questions import category_bars, question_view
from collector.presentation.scoring import scoring_cards, scoring_run_payload
from collector.presentation.training import training_job_payload
from collector.selectors.forecast import forecast_job_latest
from collector.selectors.grades import round_gradebook, round_students
from collector.selectors.item_quality import questions_by_quality, round_item_quality
from collector.selectors.questions import round_questions
from collector.selectors.rounds import course_rounds, round_authors, round_for_manager, round_live_model, round_stats
from collector.selectors.scoring import scoring_runs_latest
from collector.selectors.training import starter_job_latest, training_jobs_latest
from collector.selectors.validation import round_validator_capacity
from collector.services.rounds import round_create, round_create_check
from core.pages import paginate
from courses.presentation import staff_section
from courses.selectors import course_enrollments, course_for_manager
from modelhub.selectors import model_reference_accuracy

ROUND_TABLE_PAGE_SIZE = 25


@login_required
@require_http_methods(["GET", "POST"])
def course_detail(request: HttpRequest, course_id: int) -> HttpResponse:
    course = course_for_manager(user=request.user, course_id=course_id)
    form = RoundCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            round_ = round_create(course=course, **form.cleaned_data)
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(request, _("Round “%(round)s” created.") % {"round": round_})
            return redirect("collector:round_detail", round_id=round_.pk)
    elif request.method == "POST":
        # The service's rules too, on the fields the form could read: every problem shows at once.
        try:
            round_create_check(course=course, skip=set(form.errors) - {"__all__"}, **form.cleaned_data)
        except ValidationError as error:
            form.add_service_errors(error)
    context = {
        "course": course,
        "enrollments": course_enrollments(course=course),
        "rounds": course_rounds(course=course),
        "form": form,
        **staff_section(course=course),
    }
    return render(request, "collector/course_detail.html", context)


@login_required
@require_safe
def round_detail(request: HttpRequest, round_id: int) -> HttpResponse:
    """The instructor's view of a round: stats, the live model and a filterable question table."""
    round_ = round_for_manager(user=request.user, round_id=round_id)
    authors = [(author.pk, author.username) for author in round_authors(round_=round_)]
    filters = QuestionFilterForm(request.GET, authors=authors)
    questions = round_questions(round_=round_, **filters.selector_kwargs())
    quality = round_item_quality(round_=round_)
    if filters.sort_by_quality():
        questions = questions_by_quality(questions, quality)
    page = paginate(request, questions, ROUND_TABLE_PAGE_SIZE)
    for question in page:  # the table's quality columns read it from the row's question
        question.item_quality = quality.get(question.pk)
    stats = round_stats(round_=round_)
    context = {
        "round": round_,
        "stats": stats,
        "category_bars": category_bars(stats["categories"]),
        "filters": filters,
        "page_obj": page,
        "rows": [question_view(question) for question in page],
        "item_quality": quality,
        # Sorted by quality, the table shows the scores; otherwise it stays narrow enough for a laptop.
        "quality_columns": filters.sort_by_quality(),
        "scoring_cards": scoring_cards([scoring_run_payload(run) for run in scoring_runs_latest(round_=round_)]),
        "train_form": ModelTrainForm(rounds=round_choices(round_)),
        "training_jobs": [training_job_payload(job) for job in training_jobs_latest(round_=round_)],
        **_forecast(round_),
        "grades_form": GradesExportForm(),
        "grades_left_out": _grades_left_out(round_),
        "capacity": round_validator_capacity(round_=round_),
        **_live_reference(round_),
    }
    return render(request, "collector/round_detail.html", context)


def _forecast(round_: Round) -> dict:
    job = forecast_job_latest(round_=round_)
    return {"forecast_job": forecast_job_card(job) if job else None, "forecast_record": job,
            "forecast_shown": forecast_is_shown(job)}


def _live_reference(round_: Round) -> dict:
    version = round_live_model(round_=round_)
    return {"live_version": version, "live_reference": model_reference_accuracy(model_version=version),
            "starter_job": starter_job_latest(round_=round_)}


def _grades_left_out(round_: Round) -> list[dict]:
    students = round_students(round_=round_)
    return grades_left_out(users=students, gradebook=round_gradebook(round_=round_, users=students))


def round_choices(round_: Round) -> list[tuple[int, str]]:
    """The course's rounds as form choices (the new model may go live in any of them)."""
    return [(r.pk, f"{r} ({r.name})") for r in course_rounds(course=round_.course)]


def back_to_round(round_: Round) -> HttpResponse:
    return redirect("collector:round_detail", round_id=round_.pk)
