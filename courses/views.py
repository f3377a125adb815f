"""HTML pages of courses: the instructor's course list, and a student's sign-up with a join code.

A course's own page lists its rounds, so it is the collector's (``collector/views/rounds.py``).
"""
from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import passwords
from accounts.forms import SignupForm
from courses import selectors, services
from courses.forms import CourseCreateForm
from courses.panels import course_page_url


@login_required
@require_http_methods(["GET", "POST"])
def course_list(request: HttpRequest) -> HttpResponse:
    selectors.instructor_check(user=request.user)
    form = CourseCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            course = services.course_create(owner=request.user, name=form.cleaned_data["name"])
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(request, _("Course “%(name)s” created. Its join code is %(code)s.")
                             % {"name": course.name, "code": course.join_code})
            return redirect(course_page_url(course))
    context = {"courses": selectors.courses_with_counts(user=request.user), "form": form}
    return render(request, "courses/course_list.html", context)


async def signup(request: HttpRequest) -> HttpResponse:
    """``signup_sync`` with the new password hashed beforehand in the password pool."""
    if request.method == "POST" and request.POST.get("password1"):
        async with passwords.prepare(password=request.POST["password1"], encoded=""):
            return await sync_to_async(signup_sync)(request)
    return await sync_to_async(signup_sync)(request)


@require_http_methods(["GET", "POST"])
def signup_sync(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.student_register(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                join_code=form.cleaned_data["join_code"],
                email=form.cleaned_data["email"],
            )
        except ValidationError as error:
            form.add_service_errors(error.message_dict if hasattr(error, "error_dict") else {"__all__": error.messages})
        else:
            # Only ModelBackend is configured, but naming it keeps login() working if more are added.
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("home")
    elif request.method == "POST":
        # All the problems at once: the join code, the name and the password too, not only the form's own.
        post = request.POST
        form.add_service_errors(services.student_register_errors(
            username=post.get("username", ""), password=post.get("password1", ""),
            join_code=post.get("join_code", ""), email=post.get("email", ""),
        ), only_new=True)
    return render(request, "courses/signup.html", {"form": form})
