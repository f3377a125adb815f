"""Downloads of a dataset release (a zip of the ``export_hf`` folder) from the round page and
the project dashboard, for the course's instructors / the project's owner (and staff)."""
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_safe

from core.apis import file_response
from evaluation.release_form import release_form_refused
from evaluation.selectors.releases import ReleaseError
from evaluation.selectors.reports import evaluation_target
from evaluation.services.releases import release_options_from_query, release_zip


@login_required
@require_safe
def release_download(request: HttpRequest, round_id: int | None = None, project_id: int | None = None) -> HttpResponse:
    """The release of a round (``round_id``) or a project with the query's options; a release that
    cannot be made goes back to the page's release form, which says why (``evaluation/release_form.py``)."""
    target = evaluation_target(user=request.user, round_id=round_id, project_id=project_id)
    try:
        name, content = release_zip(options=release_options_from_query(request.GET), **target)
    except ReleaseError as error:
        # Back to the form, which shows why beside the field it is about, with the choices kept.
        kind, target_id = ("round", round_id) if round_id is not None else ("project", project_id)
        release_form_refused(request.session, target=f"{kind}:{target_id}", query=request.GET, error=error)
        page = (reverse("collector:round_detail", args=[round_id]) if round_id is not None
                else reverse("annotation:project_dashboard", args=[project_id]))
        return redirect(f"{page}#release-errors-{kind}")
    return file_response(content, content_type="application/zip", filename=name)
