"""Django's password reset and change views with our templates and wording."""
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse_lazy

from accounts.recovery_services import RESET_EMAIL_TEMPLATE, RESET_SUBJECT_TEMPLATE, reset_link_days


class PasswordResetView(auth_views.PasswordResetView):
    """Ask for a reset link by email; the answer never says whether the address has an account."""

    template_name = "accounts/password_reset_form.html"
    email_template_name = RESET_EMAIL_TEMPLATE
    subject_template_name = RESET_SUBJECT_TEMPLATE
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        self.extra_email_context = {"timeout_days": reset_link_days()}
        return super().form_valid(form)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"

    def get_context_data(self, **kwargs) -> dict:
        return {**super().get_context_data(**kwargs), "timeout_days": reset_link_days()}


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")


@login_required
def password_change_done(request: HttpRequest) -> HttpResponse:
    messages.success(request, "Your password is changed.")
    return redirect("accounts:settings")
