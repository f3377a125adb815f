"""Sign-up for students; sign-in (rate-limited) and sign-out are Django's own views with our templates.

Both sign-in and sign-up are async views: the password is hashed in a pool of its own first
(``accounts.passwords``), then the synchronous view runs as usual, without hashing, in the
thread daphne gives synchronous code. A class signing in at once then neither queues behind
each other's hashes nor blocks the other pages of the process.
"""
from asgiref.sync import sync_to_async
from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts import passwords, selectors
from accounts.forms import RateLimitedAuthenticationForm, SignupForm
from collector.services import student_register


async def signup(request: HttpRequest) -> HttpResponse:
    """``signup_sync`` with the new password hashed beforehand in the password pool."""
    if request.method == "POST" and request.POST.get("password1"):
        async with passwords.prepare(password=request.POST["password1"], encoded=""):
            return await sync_to_async(signup_sync)(request)
    return await sync_to_async(signup_sync)(request)


async def login_view(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    """``RateLimitedLoginView`` with the password checked beforehand in the password pool."""
    if request.method == "POST" and request.POST.get("password"):
        encoded = await sync_to_async(selectors.user_password_hash)(username=request.POST.get("username", ""))
        async with passwords.prepare(password=request.POST["password"], encoded=encoded):
            return await sync_to_async(_login_sync)(request, *args, **kwargs)
    return await sync_to_async(_login_sync)(request, *args, **kwargs)


@require_http_methods(["GET", "POST"])
def signup_sync(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = student_register(
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
    return render(request, "accounts/signup.html", {"form": form})


class RateLimitedLoginView(LoginView):
    """Django's login view with ``RateLimitedAuthenticationForm``; a refused attempt answers 429."""

    form_class = RateLimitedAuthenticationForm
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def form_invalid(self, form: RateLimitedAuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.rate_limited:
            response.status_code = 429
        return response


_login_sync = RateLimitedLoginView.as_view()
