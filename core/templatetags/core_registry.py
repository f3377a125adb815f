"""The page side of ``core.registry``: a lower app's page draws what higher apps registered, without
naming them (docs/architecture.md).

``{% load core_registry %}``, then ``{% panels "round_detail" round %}`` (each registered panel's
template, rendered as ``{% include %}`` would, in order), ``{% links "project_nav" project as links %}``
(``label`` and ``url`` of each link the signed-in user may see) or ``{% link_url "course_page" course %}``
(the first link's URL, "" when none is registered).
"""
from django import template
from django.utils.safestring import SafeString, mark_safe

from core.registry import ShownLink, links_shown, panels_of

register = template.Library()


@register.simple_tag(takes_context=True)
def panels(context: template.Context, slot: str, obj=None) -> SafeString:
    parts = []
    for panel in panels_of(slot):
        names = panel.context(context, obj) if panel.context else {}
        with context.push(**names):
            parts.append(context.template.engine.get_template(panel.template).render(context))
    return mark_safe("".join(parts))  # each part is a template's own output, escaped there


def _user(context: template.Context):
    request = context.get("request")
    return context.get("user") or getattr(request, "user", None)


@register.simple_tag(takes_context=True)
def links(context: template.Context, slot: str, obj=None) -> list[ShownLink]:
    return links_shown(slot, obj=obj, user=_user(context))


@register.simple_tag(takes_context=True)
def link_url(context: template.Context, slot: str, obj=None) -> str:
    shown = links_shown(slot, obj=obj, user=_user(context))
    return shown[0].url if shown else ""
