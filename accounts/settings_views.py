"""The account settings page: the user's API token (create, shown once; revoke)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from accounts import tokens

# The new key waits here for exactly one page view: after that only its first characters show.
NEW_TOKEN_SESSION_KEY = "accounts_new_api_token"


@login_required
@require_safe
def account_settings(request: HttpRequest) -> HttpResponse:
    context = {
        "token": tokens.api_token_of(user=request.user),
        "new_key": request.session.pop(NEW_TOKEN_SESSION_KEY, None),
    }
    return render(request, "accounts/settings.html", context)


@login_required
@require_POST
def api_token_create(request: HttpRequest) -> HttpResponse:
    token = tokens.api_token_create(user=request.user)
    request.session[NEW_TOKEN_SESSION_KEY] = token.key
    return redirect("accounts:settings")


@login_required
@require_POST
def api_token_revoke(request: HttpRequest) -> HttpResponse:
    request.session.pop(NEW_TOKEN_SESSION_KEY, None)  # never show a revoked key
    if tokens.api_token_revoke(user=request.user):
        messages.success(request, "Your API token is revoked: programs using it can no longer sign in as you.")
    else:
        messages.info(request, "You had no API token.")
    return redirect("accounts:settings")
