"""Owners' pages of their projects: the list (and creating one), a project's dashboard, its settings.

The dashboard's SQuAD download, which can add an evaluation report's weights, is
``evaluation.views.exports``; its model-in-the-loop panel posts to ``annotation.views.qa_models``.
Access rules are in the selectors (``AccessError`` -> 403 page).
"""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from annotation.forms.projects import ProjectForm
from annotation.models import Split
from annotation.presentation.stats import stats_charts
from annotation.selectors.projects import project_for_owner, projects_of_owner
from annotation.selectors.qa_models import project_model_panel
from annotation.selectors.stats import project_stats
from annotation.services.projects import project_create, project_update
from core.charts import chart_view
from core.exceptions import AccessError


# --------------------------------------------------------------------------- owners
@login_required
@require_http_methods(["GET", "POST"])
def project_list(request: HttpRequest) -> HttpResponse:
    if not request.user.is_instructor:
        raise AccessError("Only instructors (project owners) manage annotation projects.")
    form = ProjectForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            project = project_create(owner=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(request, _("Project “%(name)s” created. Import passages to start.") % {"name": project.name})
            return redirect("annotation:project_import", project_id=project.pk)
    return render(request, "annotation/project_list.html",
                  {"projects": projects_of_owner(user=request.user), "form": form,
                   "more_settings": form.fieldsets(exclude=("name", "language", "instructions"))})


@login_required
@require_safe
def project_dashboard(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_owner(user=request.user, project_id=project_id)
    stats = project_stats(project=project)
    context = {"project": project, "stats": stats, "charts": [chart_view(f"stats-chart-{i}", c) for i, c in enumerate(stats_charts(stats))],
               "splits": Split.choices, "model_panel": project_model_panel(project=project)}
    return render(request, "annotation/project_dashboard.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def project_settings(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_owner(user=request.user, project_id=project_id)
    form = ProjectForm(request.POST or None, instance=project, creating=False)
    if request.method == "POST" and form.is_valid():
        try:
            project_update(project=project, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("annotation:project_dashboard", project_id=project.pk)
    project.refresh_from_db()  # the bound form changed the instance; the page title shows the stored one
    return render(request, "annotation/project_settings.html", {"project": project, "form": form})
