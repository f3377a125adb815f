"""The release form's defaults, read by the evaluation app for the round page and the project
dashboard (which include ``evaluation/_release_form.html``): the license and source dataset recorded
when questions were imported, so that the form offers them, or asks when nothing was recorded.

``{% load evaluation_releases %}`` then ``{% release_provenance round=round as provenance %}``.
"""
from django import template

from evaluation.selectors import releases as release_selectors

register = template.Library()


@register.simple_tag
def release_provenance(*, round=None, project=None) -> release_selectors.ReleaseProvenance:
    """Imported questions of ``round`` (or ``project``) and the source and license recorded for them."""
    return release_selectors.release_provenance(round_=round, project=project)
