"""The owner's page of a project's participants: export one's data, delete it on request.

``participant_id`` in the URLs is a user id: it must be a participant of a project the caller
owns (``participant_for_owner``, else 404); deletion asks for confirmation first.
"""
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from annotation.selectors.participants import participant_export, participant_for_owner, participants_of_project
from annotation.selectors.projects import project_for_owner
from annotation.services.participants import participant_delete
from core.apis import content_disposition


@login_required
@require_safe
def project_participants(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_owner(user=request.user, project_id=project_id)
    return render(request, "annotation/project_participants.html",
                  {"project": project, "participants": participants_of_project(project=project)})


@login_required
@require_safe
def participant_data_export(request: HttpRequest, project_id: int, participant_id: int) -> HttpResponse:
    project = project_for_owner(user=request.user, project_id=project_id)
    worker = participant_for_owner(project=project, worker_id=participant_id)
    data = participant_export(project=project, worker=worker)
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json")
    response["Content-Disposition"] = content_disposition(f"{project.name}-participant-{worker.pk}.json")
    return response


@login_required
@require_http_methods(["GET", "POST"])
def participant_data_delete(request: HttpRequest, project_id: int, participant_id: int) -> HttpResponse:
    project = project_for_owner(user=request.user, project_id=project_id)
    worker = participant_for_owner(project=project, worker_id=participant_id)
    if request.method == "POST":
        deletion = participant_delete(project=project, worker_id=worker.pk, user=request.user)
        messages.success(request, _("The participant's data in this project was deleted (%(rows)d rows).")
                         % {"rows": sum(deletion.counts.values())})
        return redirect("annotation:project_participants", project_id=project.pk)
    return render(request, "annotation/participant_delete.html", {"project": project, "worker": worker})
