"""Invite links: the owner's page (create, revoke, who may see the project) and the join page
a crowdworker opens from the link (sign up or sign in, then join)."""
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from annotation.forms.invites import InviteAccessForm, InviteCreateForm, InviteSignupForm
from annotation.inputs import first_message
from annotation.selectors.invites import (
    invite_by_token,
    invite_for_owner,
    invites_of_project,
    is_member,
    members_of_project,
)
from annotation.selectors.projects import project_for_owner
from annotation.services import invites as invite_services


@login_required
@require_http_methods(["GET", "POST"])
def project_invites(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_owner(user=request.user, project_id=project_id)
    form = InviteCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            invite_services.invite_create(project=project, created_by=request.user, days=form.cleaned_data["days"])
        except ValidationError as error:
            messages.error(request, first_message(error))
        else:
            messages.success(request, _("New invite link created: copy it from the list below and send it to your crowdworkers."))
        return redirect("annotation:project_invites", project_id=project.pk)
    context = {
        "project": project, "form": form, "access_form": InviteAccessForm(initial={"invite_only": project.invite_only}),
        "invites": invites_of_project(project=project),
        "members": members_of_project(project=project),
        "join_base": request.build_absolute_uri(reverse("annotation:invite_join", args=["TOKEN"])).replace("TOKEN/", ""),
    }
    return render(request, "annotation/project_invites.html", context)


@login_required
@require_POST
def project_access(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_owner(user=request.user, project_id=project_id)
    form = InviteAccessForm(request.POST)
    if form.is_valid():
        invite_services.project_invite_only_set(project=project, invite_only=form.cleaned_data["invite_only"])
        messages.success(request, _("Only invited crowdworkers see this project now.") if project.invite_only
                         else _("Every crowdworker sees this project now."))
    return redirect("annotation:project_invites", project_id=project.pk)


@login_required
@require_POST
def invite_revoke(request: HttpRequest, invite_id: int) -> HttpResponse:
    invite = invite_for_owner(user=request.user, invite_id=invite_id)
    invite_services.invite_revoke(invite=invite)
    messages.success(request, _("The invite link is revoked: it no longer works. Who already joined stays in."))
    return redirect("annotation:project_invites", project_id=invite.project_id)


@require_http_methods(["GET", "POST"])
def invite_join(request: HttpRequest, token: str) -> HttpResponse:
    """Anyone with the link: a clear page if it is dead; else sign up, or (signed in) join."""
    invite = invite_by_token(token=token)
    refusal = invite_services.invite_refusal(invite)
    if refusal:
        return render(request, "invite_invalid.html", {"reason": refusal}, status=404 if invite is None else 410)
    user = request.user
    if user.is_authenticated and is_member(user=user, project=invite.project):
        messages.info(request, _("You are already in %(name)s.") % {"name": invite.project.name})
        return redirect("annotation:task_list")
    form = InviteSignupForm(request.POST or None) if not user.is_authenticated else None
    if request.method == "POST" and (form is None or form.is_valid()):
        try:
            if form is None:
                invite_services.invite_accept(invite=invite, user=user)
            else:
                member = invite_services.invite_signup(invite=invite, username=form.cleaned_data["username"],
                                       password=form.cleaned_data["password1"], email=form.cleaned_data["email"])
                login(request, member.worker, backend="django.contrib.auth.backends.ModelBackend")
        except ValidationError as error:
            if form is not None and hasattr(error, "error_dict"):
                form.add_service_errors(error.message_dict)  # taken username, weak password
            else:
                messages.error(request, first_message(error))  # the link died meanwhile
        else:
            messages.success(request, _("Welcome to %(name)s! Your tasks are below.") % {"name": invite.project.name})
            return redirect("annotation:task_list")
    context = {"invite": invite, "project": invite.project, "form": form,
               "login_url": f"{reverse('accounts:login')}?next={request.path}"}
    return render(request, "annotation/invite_join.html", context)
