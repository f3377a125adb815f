"""The owner's import page: passages (article JSON Lines, PageRank-ranked) or a SQuAD-2.0 / PQuAD file."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from annotation.forms.imports import ArticleImportForm, SquadImportForm
from annotation.selectors.projects import project_for_owner
from annotation.services.imports import articles_import, squad_import
from core.exceptions import ImportFailed


@login_required
@require_http_methods(["GET", "POST"])
def project_import(request: HttpRequest, project_id: int) -> HttpResponse:
    """Upload passages (article JSON Lines, PageRank-ranked) or a SQuAD-2.0 / PQuAD file."""
    project = project_for_owner(user=request.user, project_id=project_id)
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
            messages.error(request, ngettext("Nothing was imported: the file has %(count)s problem, listed below.",
                                             "Nothing was imported: the file has %(count)s problems, listed below.",
                                             len(error.errors)) % {"count": len(error.errors)})
        else:
            messages.success(request, summary)
            return redirect("annotation:project_dashboard", project_id=project.pk)
    context = {"project": project, "articles_form": articles, "squad_form": squad, "problems": problems}
    return render(request, "annotation/project_import.html", context)


def _run_import(project, which: str, data: dict) -> str:
    if which == "articles":
        result = articles_import(project=project, lines=data["file"], damping=data["damping"],
                                 top=data["top"], require_infobox=data["require_infobox"])
        return f"Imported {result.articles} articles with {result.paragraphs} paragraphs."
    result = squad_import(project=project, data=data["file"], split=data["split"])
    warnings = f" {len(result.warnings)} warning(s) (kept as written)." if result.warnings else ""
    return (f"Imported {result.questions} questions ({result.unanswerable} unanswerable) and {result.answers} "
            f"answers on {result.paragraphs} paragraphs.{warnings}")
