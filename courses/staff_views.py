"""A course's teaching staff: the instructors add co-instructors and teaching assistants by name or
e-mail, take them off, and keep an instructor invite link; whoever opens the link (signed in, or
making an account on the spot) becomes a co-instructor.

The course page (``collector/templates/collector/course_detail.html``) shows the same section
(``courses/_staff.html``); its forms post here, and a refused one comes back on this page with the
reason beside the field (``courses.presentation.staff_section`` makes the section's context).
"""
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from courses import services
from courses.forms import CourseStaffAddForm, InstructorSignupForm
from courses.models import StaffRole
from courses.panels import course_page_url
from courses.presentation import STAFF_ROLE_POWERS, staff_section
from courses.selectors import (
    course_by_invite_token,
    course_for_manager,
    instructor_refusal,
    user_manages_course,
)


@login_required
@require_http_methods(["GET", "POST"])
def course_staff(request: HttpRequest, course_id: int) -> HttpResponse:
    """The teaching staff with what each role may do; POST adds someone by username or e-mail."""
    course = course_for_manager(user=request.user, course_id=course_id)
    form = CourseStaffAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.course_staff_add(course=course, **form.cleaned_data)
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            role = StaffRole(form.cleaned_data["role"]).label.lower()
            messages.success(request, _("%(name)s is now a %(role)s of %(course)s.")
                             % {"name": user.username, "role": role, "course": course.name})
            return redirect("courses:course_staff", course_id=course.pk)
    context = {"course": course, **staff_section(course=course, form=form)}
    return render(request, "courses/course_staff.html", context)


@login_required
@require_POST
def course_staff_remove(request: HttpRequest, course_id: int, user_id: int) -> HttpResponse:
    course = course_for_manager(user=request.user, course_id=course_id)
    try:
        user = services.course_staff_remove(course=course, user_id=user_id)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("courses:course_staff", course_id=course.pk)
    messages.success(request, _("%(name)s no longer teaches %(course)s.") % {"name": user.username, "course": course.name})
    if not user_manages_course(user=request.user, course=course):  # they took themselves off
        return redirect("courses:course_list")
    return redirect("courses:course_staff", course_id=course.pk)


@login_required
@require_POST
def instructor_invite(request: HttpRequest, course_id: int) -> HttpResponse:
    """``action=renew``: a new link (the old one stops working); ``action=revoke``: no link."""
    course = course_for_manager(user=request.user, course_id=course_id)
    if request.POST.get("action") == "revoke":
        services.course_instructor_invite_revoke(course=course)
        messages.success(request, _("The instructor invite link is withdrawn: it no longer works. "
                                    "Co-instructors who joined by it stay."))
    else:
        services.course_instructor_invite_renew(course=course)
        messages.success(request, _("New instructor invite link: copy it from the teaching staff section and send "
                                    "it to your co-instructors. Any earlier link no longer works."))
    return redirect(reverse("courses:course_staff", args=[course.pk]) + "#invite-heading")


@require_http_methods(["GET", "POST"])
def instructor_invite_join(request: HttpRequest, token: str) -> HttpResponse:
    """Anyone with the link: signed in, join as co-instructor; signed out, make an instructor account."""
    course = course_by_invite_token(token=token)
    if course is None:
        return render(request, "invite_invalid.html", {"reason": services.DEAD_INVITE}, status=404)
    user = request.user
    if user.is_authenticated and user_manages_course(user=user, course=course):
        messages.info(request, _("You already teach %(course)s.") % {"course": course.name})
        return redirect(course_page_url(course))
    form = None if user.is_authenticated else InstructorSignupForm(request.POST or None)
    error = instructor_refusal(course=course, user=user) if user.is_authenticated else ""
    if error:
        return render(request, "courses/instructor_invite_join.html", {"course": course, "error": error}, status=403)
    if request.method == "POST" and (form is None or form.is_valid()):
        try:
            if form is None:
                services.course_instructor_invite_accept(token=token, user=user)
            else:
                user = services.course_instructor_invite_signup(
                    token=token, username=form.cleaned_data["username"], password=form.cleaned_data["password1"],
                    email=form.cleaned_data["email"])
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        except ValidationError as refused:
            if form is not None and hasattr(refused, "error_dict"):
                form.add_service_errors(refused.message_dict)  # a taken username, a weak password
            else:
                error = " ".join(refused.messages)
        else:
            messages.success(request, _("Welcome to %(course)s: you are now one of its instructors.") % {"course": course.name})
            return redirect(course_page_url(course))
    context = {"course": course, "form": form, "error": error,
               "powers": _(STAFF_ROLE_POWERS[StaffRole.INSTRUCTOR]),
               "login_url": f"{reverse('accounts:login')}?next={request.path}"}
    return render(request, "courses/instructor_invite_join.html", context)
