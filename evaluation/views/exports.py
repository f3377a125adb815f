"""The SQuAD-2.0 download of the project dashboard's Export form, for the project's owner: one
split or all, with a finished evaluation report's reweighting weights if one is chosen.

The path is the project's (``/annotation/projects/<id>/export/``), the name evaluation's
(``evaluation:project_export``, ``evaluation/export_urls.py``). The form on the dashboard is a panel of its
``project_exports`` slot (``evaluation/panels.py``, through ``core.registry``).
"""
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from annotation.inputs import first_message
from annotation.selectors.exports import project_squad_dict
from annotation.selectors.projects import project_for_owner
from core.apis import content_disposition
from evaluation.forms.exports import SquadExportForm
from evaluation.selectors.exports import evaluation_run_weights, evaluation_runs_with_weights


@login_required
@require_safe
def project_export(request: HttpRequest, project_id: int) -> HttpResponse:
    """SQuAD-2.0 JSON of one split or all, with an evaluation report's weights if one is chosen."""
    project = project_for_owner(user=request.user, project_id=project_id)
    form = SquadExportForm(request.GET, runs=evaluation_runs_with_weights(project=project))
    try:
        if not form.is_valid():
            raise ValidationError([message for errors in form.errors.values() for message in errors])
        run = form.cleaned_data["weights_run"]
        weights = evaluation_run_weights(run_id=run.pk, project=project) if run else None
    except ValidationError as error:
        # A download link has no page of its own to show the problem on.
        messages.error(request, _("Nothing exported. %(reason)s") % {"reason": first_message(error)})
        return redirect("annotation:project_dashboard", project_id=project.pk)
    data = project_squad_dict(project=project, split=form.cleaned_data["split"] or None, weights=weights)
    response = HttpResponse(json.dumps(data, ensure_ascii=False), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition(form.filename(project))
    return response
