"""HTML pages of span annotation: each view validates, calls one service or selector, renders.

Workers: the task list and the annotation page (whose JavaScript talks to ``annotation.apis``
and the model-in-the-loop websocket). Owners: projects, their dashboard, paragraphs, flags,
imports; the dashboard's SQuAD download, which can add an evaluation report's weights, is
``evaluation.export_views``. Access rules are in the selectors (``AccessError`` -> 403 page).
"""
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.i18n import JavaScriptCatalog

from annotation import selectors, services
from annotation.forms import (
    ArticleImportForm,
    FlagFilterForm,
    FlagResolveForm,
    ParagraphFilterForm,
    ProjectForm,
    SquadImportForm,
)
from annotation.i18n import DISCARD_REASONS, SESSION_STATUS, SPLITS, activate_project_language
from annotation.model_selectors import project_model_panel
from annotation.models import AnnotationSession, Split
from annotation.presentation import session_payload
from annotation.stats import project_stats, stats_charts
from annotation.validation import first_message
from annotation.worker_selectors import worker_progress
from core.charts import chart_view
from core.exceptions import AccessError, ImportFailed

PAGE_SIZE = 25
_catalog_view = JavaScriptCatalog.as_view(packages=["annotation"])


@require_safe
def javascript_catalog(request: HttpRequest, language: str) -> HttpResponse:
    """The worker pages' JavaScript translations (gettext, ngettext) in the page's language."""
    if language not in dict(settings.LANGUAGES):
        raise Http404("No such language.")
    with translation.override(language):
        return _catalog_view(request)


@login_required
@require_safe
def task_list(request: HttpRequest) -> HttpResponse:
    """A worker's projects: paragraphs left to write on or to answer, and unfinished ones."""
    tasks = selectors.projects_for_worker(user=request.user)
    activate_project_language(request, (task.project.language for task in tasks))
    rows = [(task, worker_progress(user=request.user, project=task.project)) for task in tasks]
    context = {"tasks": rows, "can_annotate": bool(tasks) or selectors.can_annotate(request.user)}
    return render(request, "annotation/task_list.html", context)


@login_required
@require_POST
def task_start(request: HttpRequest, project_id: int, kind: str) -> HttpResponse:
    project = selectors.project_for_worker(user=request.user, project_id=project_id)
    activate_project_language(request, [project.language])
    if kind not in AnnotationSession.Kind.values:
        raise AccessError(_("There is no such kind of task."))
    session = services.session_start_next(user=request.user, project=project, kind=kind)
    if session is None:
        messages.info(request, _("Nothing left to do in %(project)s right now. Thank you!") % {"project": project.name})
        return redirect("annotation:task_list")
    return redirect("annotation:session", session_id=session.pk)


@login_required
@require_safe
def session_page(request: HttpRequest, session_id: int) -> HttpResponse:
    session = selectors.session_for_worker(user=request.user, session_id=session_id)
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


# --------------------------------------------------------------------------- owners
@login_required
@require_http_methods(["GET", "POST"])
def project_list(request: HttpRequest) -> HttpResponse:
    if not request.user.is_instructor:
        raise AccessError("Only instructors (project owners) manage annotation projects.")
    form = ProjectForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            project = services.project_create(owner=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(request, f"Project “{project.name}” created. Import passages to start.")
            return redirect("annotation:project_import", project_id=project.pk)
    return render(request, "annotation/project_list.html",
                  {"projects": selectors.projects_of_owner(user=request.user), "form": form,
                   "more_settings": form.fieldsets(exclude=("name", "language", "instructions"))})


@login_required
@require_safe
def project_dashboard(request: HttpRequest, project_id: int) -> HttpResponse:
    project = selectors.project_for_owner(user=request.user, project_id=project_id)
    stats = project_stats(project=project)
    context = {"project": project, "stats": stats, "charts": [chart_view(f"stats-chart-{i}", c) for i, c in enumerate(stats_charts(stats))],
               "splits": Split.choices, "model_panel": project_model_panel(project=project)}
    return render(request, "annotation/project_dashboard.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def project_settings(request: HttpRequest, project_id: int) -> HttpResponse:
    project = selectors.project_for_owner(user=request.user, project_id=project_id)
    form = ProjectForm(request.POST or None, instance=project, creating=False)
    if request.method == "POST" and form.is_valid():
        try:
            services.project_update(project=project, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(request, "Settings saved.")
            return redirect("annotation:project_dashboard", project_id=project.pk)
    project.refresh_from_db()  # the bound form changed the instance; the page title shows the stored one
    return render(request, "annotation/project_settings.html", {"project": project, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def project_import(request: HttpRequest, project_id: int) -> HttpResponse:
    """Upload passages (article JSON Lines, PageRank-ranked) or a SQuAD-2.0 / PQuAD file."""
    project = selectors.project_for_owner(user=request.user, project_id=project_id)
    which = request.POST.get("which")
    articles = ArticleImportForm(request.POST if which == "articles" else None,
                                 request.FILES if which == "articles" else None)
    squad = SquadImportForm(request.POST if which == "squad" else None, request.FILES if which == "squad" else None)
    problems: list[tuple[str, str]] = []
    form = articles if which == "articles" else squad
    if request.method == "POST" and form.is_valid():
        try:
            summary = _run_import(project, which, form.cleaned_data)
        except ImportFailed as error:
            problems = error.errors[:100]
            messages.error(request, f"Nothing was imported: the file has {len(error.errors)} problem(s), listed below.")
        else:
            messages.success(request, summary)
            return redirect("annotation:project_dashboard", project_id=project.pk)
    context = {"project": project, "articles_form": articles, "squad_form": squad, "problems": problems}
    return render(request, "annotation/project_import.html", context)


def _run_import(project, which: str, data: dict) -> str:
    if which == "articles":
        result = services.articles_import(project=project, lines=data["file"], damping=data["damping"],
                                          top=data["top"], require_infobox=data["require_infobox"])
        return f"Imported {result.articles} articles with {result.paragraphs} paragraphs."
    result = services.squad_import(project=project, data=data["file"], split=data["split"])
    warnings = f" {len(result.warnings)} warning(s) (kept as written)." if result.warnings else ""
    return (f"Imported {result.questions} questions ({result.unanswerable} unanswerable) and {result.answers} "
            f"answers on {result.paragraphs} paragraphs.{warnings}")


@login_required
@require_safe
def project_paragraphs(request: HttpRequest, project_id: int) -> HttpResponse:
    project = selectors.project_for_owner(user=request.user, project_id=project_id)
    filters = ParagraphFilterForm(request.GET)
    filters.is_valid()
    paragraphs = selectors.paragraphs_of_project(project=project, status=filters.cleaned_data.get("status", ""),
                                                 split=filters.cleaned_data.get("split", ""))
    page = Paginator(paragraphs, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "annotation/project_paragraphs.html",
                  {"project": project, "filters": filters, "page_obj": page})


@login_required
@require_POST
def paragraph_restore(request: HttpRequest, paragraph_id: int) -> HttpResponse:
    paragraph = selectors.paragraph_for_owner(user=request.user, paragraph_id=paragraph_id)
    try:
        services.paragraph_restore(paragraph=paragraph, user=request.user)
    except ValidationError as error:
        messages.error(request, first_message(error))
    else:
        messages.success(request, "The paragraph is back in the queue.")
    return redirect("annotation:project_paragraphs", project_id=paragraph.article.project_id)


@login_required
@require_safe
def project_flags(request: HttpRequest, project_id: int) -> HttpResponse:
    project = selectors.project_for_owner(user=request.user, project_id=project_id)
    filters = FlagFilterForm(request.GET or {"status": "open"})
    filters.is_valid()
    flags = selectors.flags_of_project(project=project, status=filters.cleaned_data.get("status") or None)
    page = Paginator(flags, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "annotation/project_flags.html",
                  {"project": project, "filters": filters, "page_obj": page, "resolve_form": FlagResolveForm()})


@login_required
@require_POST
def flag_resolve(request: HttpRequest, flag_id: int) -> HttpResponse:
    flag = selectors.flag_for_owner(user=request.user, flag_id=flag_id)
    form = FlagResolveForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose whether to accept or reject the flag.")
    else:
        accept = form.cleaned_data["decision"] == "accept"
        try:
            services.flag_resolve(flag=flag, user=request.user, accept=accept, note=form.cleaned_data["note"])
        except ValidationError as error:
            messages.error(request, first_message(error))
        else:
            messages.success(request, "Flag accepted: the question was changed." if accept else "Flag rejected.")
    return redirect("annotation:project_flags", project_id=flag.question.project_id)
