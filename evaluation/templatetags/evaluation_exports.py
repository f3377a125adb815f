"""The project dashboard's Export form, drawn by the evaluation app: its choices are the project's
evaluation reports with weights, which the annotation app below cannot read.

``{% load evaluation_exports %}`` then ``{% squad_export_form project %}``; the form is submitted to
``annotation:project_export`` (``evaluation/views/exports.py``).
"""
from django import template

from annotation.models import Project
from evaluation.forms.exports import SquadExportForm
from evaluation.selectors.exports import evaluation_runs_with_weights

register = template.Library()


@register.inclusion_tag("evaluation/_squad_export_form.html")
def squad_export_form(project: Project) -> dict:
    """The Export section: split and weights choices (the finished reports of ``project`` with weights)."""
    return {"project": project, "export_form": SquadExportForm(runs=evaluation_runs_with_weights(project=project))}
