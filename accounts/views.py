"""Sign-up for students; sign-in (rate-limited) and sign-out are Django's own views with our templates."""
from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.forms import RateLimitedAuthenticationForm, SignupForm
from collector.services import student_register


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
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
