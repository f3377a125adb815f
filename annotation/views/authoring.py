"""The annotation page of a worker's session: writing questions on a paragraph, or (a second-pass
session) answering others' questions blind. Its JavaScript talks to ``annotation.apis.authoring`` and
``annotation.apis.second_pass`` and to the model-in-the-loop websocket (``annotation.consumers``)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from annotation.i18n import DISCARD_REASONS, SESSION_STATUS, SPLITS, activate_project_language
from annotation.models import AnnotationSession
from annotation.presentation.sessions import session_payload
from annotation.selectors.authoring import session_for_worker


@login_required
@require_safe
def session_page(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_worker(user=request.user, session_id=session_id)
    project = session.paragraph.article.project
    activate_project_language(request, [project.language])
    if session.status != AnnotationSession.Status.IN_PROGRESS:
        messages.info(request, _("That paragraph is already %(status)s.") % {"status": SESSION_STATUS[session.status]})
        return redirect("annotation:task_list")
    template = ("annotation/annotate.html" if session.kind == AnnotationSession.Kind.AUTHORING
                else "annotation/second_pass.html")
    context = {"session": session, "project": project, "payload": session_payload(session),
               "discard_reasons": DISCARD_REASONS, "split_label": SPLITS[session.paragraph.article.split]}
    return render(request, template, context)
