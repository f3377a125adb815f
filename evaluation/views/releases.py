"""Downloads of a dataset release (a zip of the ``export_hf`` folder) from the round page and
the project dashboard, for the course's instructors / the project's owner (and staff)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_safe

from core.apis import file_response
from evaluation.selectors.releases import ReleaseError
from evaluation.selectors.reports import evaluation_target
from evaluation.services.releases import release_options_from_query, release_zip


@login_required
@require_safe
def release_download(request: HttpRequest, round_id: int | None = None, project_id: int | None = None) -> HttpResponse:
    """The release of a round (``round_id``) or a project with the query's options; a release that
    cannot be made goes back to the page's release form with the reason."""
    target = evaluation_target(user=request.user, round_id=round_id, project_id=project_id)
    try:
        name, content = release_zip(options=release_options_from_query(request.GET), **target)
    except ReleaseError as error:
        messages.error(request, f"No dataset release: {error.message}")
        page = (reverse("collector:round_detail", args=[round_id]) if round_id is not None
                else reverse("annotation:project_dashboard", args=[project_id]))
        return redirect(page + "#release-heading")
    return file_response(content, content_type="application/zip", filename=name)
