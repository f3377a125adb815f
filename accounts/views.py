"""Sign-up for students; sign-in (rate-limited) and sign-out are Django's own views with our templates.

Both sign-in and sign-up are async views: the password is hashed in a pool of its own first
(``accounts.passwords``), then the synchronous view runs as usual, without hashing, in the
thread daphne gives synchronous code. A class signing in at once then neither queues behind
each other's hashes nor blocks the other pages of the process.
"""
from asgiref.sync import sync_to_async
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse

from accounts import passwords, selectors
from accounts.forms import RateLimitedAuthenticationForm


async def login_view(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    """``RateLimitedLoginView`` with the password checked beforehand in the password pool."""
    if request.method == "POST" and request.POST.get("password"):
        encoded = await sync_to_async(selectors.user_password_hash)(username=request.POST.get("username", ""))
        async with passwords.prepare(password=request.POST["password"], encoded=encoded):
            return await sync_to_async(_login_sync)(request, *args, **kwargs)
    return await sync_to_async(_login_sync)(request, *args, **kwargs)


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
