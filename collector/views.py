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
from django.views.decorators.http import require_http_methods, require_safe

from accounts.models import User
from collector import selectors, services
from collector.exceptions import AccessError
from collector.forms import CourseCreateForm, QuestionFilterForm, QuestionForm, RoundCreateForm
from collector.presentation import category_bars, question_view, submit_message

DASHBOARD_PAGE_SIZE = 25
ROUND_TABLE_PAGE_SIZE = 50


def _require_instructor(user: User) -> None:
    if not user.is_instructor:
        raise AccessError("Only instructors can manage courses. Students write questions from their dashboard.")


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Send everyone to the page of their role."""
    user = request.user
    if not user.is_authenticated:
        return redirect("accounts:login")
    if user.is_instructor:
        return redirect("collector:course_list")
    if user.is_student:
        return redirect("collector:dashboard")
    return redirect("collector:crowd_home")


@login_required
@require_safe
def crowd_home(request: HttpRequest) -> HttpResponse:
    return render(request, "collector/crowd_home.html")


@login_required
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
    context = {"round": round_, "form": form, "live_model": round_.live_model}
    return render(request, "collector/round_write.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def course_list(request: HttpRequest) -> HttpResponse:
    _require_instructor(request.user)
    form = CourseCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            course = services.course_create(owner=request.user, name=form.cleaned_data["name"])
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(request, f"Course “{course.name}” created. Its join code is {course.join_code}.")
            return redirect("collector:course_detail", course_id=course.pk)
    context = {"courses": selectors.courses_with_counts(user=request.user), "form": form}
    return render(request, "collector/course_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def course_detail(request: HttpRequest, course_id: int) -> HttpResponse:
    course = selectors.course_for_manager(user=request.user, course_id=course_id)
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
        "enrollments": selectors.course_enrollments(course=course),
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
    }
    return render(request, "collector/round_detail.html", context)
