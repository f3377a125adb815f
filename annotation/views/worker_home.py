"""A worker's home: the task list of their projects, and starting (or resuming) a paragraph from it."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from annotation.i18n import activate_project_language
from annotation.models import AnnotationSession
from annotation.selectors.projects import can_annotate, project_for_worker
from annotation.selectors.worker_home import projects_for_worker, worker_progress
from annotation.services.authoring import session_start_next
from core.exceptions import NotFoundError


@login_required
@require_safe
def task_list(request: HttpRequest) -> HttpResponse:
    """A worker's projects: paragraphs left to write on or to answer, and unfinished ones."""
    # The middleware's language (the worker's choice, else the browser's) orders a mix of languages.
    tasks = projects_for_worker(user=request.user, language=translation.get_language())
    activate_project_language(request, (task.project.language for task in tasks))
    rows = [(task, worker_progress(user=request.user, project=task.project)) for task in tasks]
    context = {"tasks": rows, "can_annotate": bool(tasks) or can_annotate(request.user)}
    return render(request, "annotation/task_list.html", context)


@login_required
@require_POST
def task_start(request: HttpRequest, project_id: int, kind: str) -> HttpResponse:
    project = project_for_worker(user=request.user, project_id=project_id)
    activate_project_language(request, [project.language])
    if kind not in AnnotationSession.Kind.values:
        raise NotFoundError(_("There is no such kind of task."))
    session = session_start_next(user=request.user, project=project, kind=kind)
    if session is None:
        messages.info(request, _("Nothing left to do in %(project)s right now. Thank you!") % {"project": project.name})
        return redirect("annotation:task_list")
    return redirect("annotation:session", session_id=session.pk)
