"""The owner's review pages: the project's paragraphs (restoring discarded ones) and the second
pass's flags (accepting or rejecting them)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from annotation.forms.reviews import FlagFilterForm, FlagResolveForm, ParagraphFilterForm
from annotation.inputs import first_message
from annotation.selectors.projects import project_for_owner
from annotation.selectors.reviews import flag_for_owner, flags_of_project, paragraph_for_owner, paragraphs_of_project
from annotation.services import reviews as review_services
from core.pages import paginate

PAGE_SIZE = 25


@login_required
@require_safe
def project_paragraphs(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_owner(user=request.user, project_id=project_id)
    filters = ParagraphFilterForm(request.GET)
    page = paginate(request, paragraphs_of_project(project=project, **filters.values()), PAGE_SIZE)
    return render(request, "annotation/project_paragraphs.html",
                  {"project": project, "filters": filters, "page_obj": page})


@login_required
@require_POST
def paragraph_restore(request: HttpRequest, paragraph_id: int) -> HttpResponse:
    paragraph = paragraph_for_owner(user=request.user, paragraph_id=paragraph_id)
    try:
        review_services.paragraph_restore(paragraph=paragraph, user=request.user)
    except ValidationError as error:
        messages.error(request, first_message(error))
    else:
        messages.success(request, _("The paragraph is back in the queue."))
    return redirect("annotation:project_paragraphs", project_id=paragraph.article.project_id)


@login_required
@require_safe
def project_flags(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_owner(user=request.user, project_id=project_id)
    filters = FlagFilterForm(request.GET or {"status": "open"})
    flags = flags_of_project(project=project, status=filters.values().get("status") or None)
    page = paginate(request, flags, PAGE_SIZE)
    return render(request, "annotation/project_flags.html",
                  {"project": project, "filters": filters, "page_obj": page, "resolve_form": FlagResolveForm()})


@login_required
@require_POST
def flag_resolve(request: HttpRequest, flag_id: int) -> HttpResponse:
    flag = flag_for_owner(user=request.user, flag_id=flag_id)
    form = FlagResolveForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose whether to accept or reject the flag."))
    else:
        accept = form.cleaned_data["decision"] == "accept"
        try:
            review_services.flag_resolve(flag=flag, user=request.user, accept=accept, note=form.cleaned_data["note"])
        except ValidationError as error:
            messages.error(request, first_message(error))
        else:
            messages.success(request, _("Flag accepted: the question was changed.") if accept else _("Flag rejected."))
    return redirect("annotation:project_flags", project_id=flag.question.project_id)
