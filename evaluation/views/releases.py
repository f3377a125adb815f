"""Downloads of a dataset release (a zip of the ``export_hf`` folder) from the round page and
the project dashboard, for the course's instructors / the project's owner (and staff)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_safe

from core.apis import file_response
from evaluation.selectors import reports as selectors
from evaluation.selectors.releases import ReleaseError
from evaluation.services.releases import release_options_from_query, release_zip


def _download(request: HttpRequest, *, back: str, **target) -> HttpResponse:
    try:
        name, content = release_zip(options=release_options_from_query(request.GET), **target)
    except ReleaseError as error:
        messages.error(request, f"No dataset release: {error.message}")
        return redirect(back)
    return file_response(content, content_type="application/zip", filename=name)


@login_required
@require_safe
def round_release_download(request: HttpRequest, round_id: int) -> HttpResponse:
    round_ = selectors.round_for_evaluation(user=request.user, round_id=round_id)
    return _download(request, back=reverse("collector:round_detail", args=[round_.pk]) + "#release-heading", round_=round_)


@login_required
@require_safe
def project_release_download(request: HttpRequest, project_id: int) -> HttpResponse:
    project = selectors.project_for_evaluation(user=request.user, project_id=project_id)
    return _download(request, back=reverse("annotation:project_dashboard", args=[project.pk]) + "#release-heading", project=project)
