"""What the evaluation app adds to the round page and the project dashboard, registered in
``EvaluationConfig.ready`` (``core.registry``): the link to their evaluation report, and their downloads,
the dataset release form (``evaluation/_release_form.html``) and the project's SQuAD export form
(``evaluation/_squad_export_form.html``, its choices the project's finished reports with weights)."""
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core.registry import Link, Panel
from evaluation.forms.exports import SquadExportForm
from evaluation.selectors.exports import evaluation_runs_with_weights


def round_release_form(context, round_) -> dict:
    return {"action": reverse("evaluation:round_release", args=[round_.pk]), "kind": "round", "name": round_.name}


def project_release_form(context, project) -> dict:
    return {"action": reverse("evaluation:project_release", args=[project.pk]), "kind": "project",
            "name": project.name}


def squad_export_form(context, project) -> dict:
    return {"export_form": SquadExportForm(runs=evaluation_runs_with_weights(project=project))}


PANELS = {
    "round_exports": [Panel("evaluation/_release_form.html", round_release_form)],
    "project_exports": [Panel("evaluation/_squad_export_form.html", squad_export_form, order=10),
                        Panel("evaluation/_release_form.html", project_release_form, order=20)],
}
LINKS = {
    "round_links": [Link(_("Evaluation report"), "evaluation:round_report")],
    "project_nav": [Link(_("Evaluation report"), "evaluation:project_report")],
    # The project's SQuAD download (a link per split in the dashboard's progress table).
    "project_export": [Link("", "evaluation:project_export")],
}
