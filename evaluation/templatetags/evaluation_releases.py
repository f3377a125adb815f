"""The release form's defaults, read by the evaluation app for the round page and the project
dashboard (which include ``evaluation/_release_form.html``): the license and source dataset recorded
when questions were imported, so that the form offers them, or asks when nothing was recorded.

``{% load evaluation_releases %}`` then ``{% release_provenance round=round as provenance %}``; after a
refused download, ``{% release_form kind="round" target=round as state %}``: the choices and the reason.
"""
from django import template

from evaluation.release_form import ReleaseFormState, release_form_state
from evaluation.selectors import releases as release_selectors

register = template.Library()


@register.simple_tag
def release_provenance(*, round=None, project=None) -> release_selectors.ReleaseProvenance:
    """Imported questions of ``round`` (or ``project``) and the source and license recorded for them."""
    return release_selectors.release_provenance(round_=round, project=project)


@register.simple_tag(takes_context=True)
def release_form(context, *, kind: str, target) -> ReleaseFormState:
    """The choices and reason of a refused download of ``target`` (a round or project), shown once."""
    request = context.get("request")
    if request is None or not hasattr(request, "session"):
        return ReleaseFormState()
    return release_form_state(request.session, target=f"{kind}:{target.pk}")


@register.filter
def release_summary_items(state: ReleaseFormState, kind: str) -> list[dict]:
    """The refusal as the error summary (``templates/includes/error_summary.html``) lists it."""
    return state.summary_items(kind)
