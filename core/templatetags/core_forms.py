"""What every page's forms show after a refused save: ``{% form_error_items form other_form as items %}``
then ``{% include "includes/error_summary.html" with items=items %}``, a summary at the top of the form
that lists every error at once and links each to its field (``static/js/error_summary.js`` moves the
focus there). A page with errors of its own (the release form) builds the same items itself."""
from django import forms, template

register = template.Library()


def field_element_id(field: forms.BoundField) -> str:
    """The id of the element a link to ``field`` focuses: its input, or the first of a group of
    radio buttons or check boxes (whose label points at no single element)."""
    return field.id_for_label or f"{field.auto_id}_0"


@register.simple_tag
def form_error_items(*forms_: forms.Form | None) -> list[dict]:
    """Every error of ``forms_`` in page order, as ``{"id", "label", "messages"}``; errors of the form
    as a whole (and of hidden fields) come first, without an id or label."""
    items: list[dict] = []
    for form in forms_:
        if form is None or not form.is_bound or not form.errors:
            continue
        items += [{"id": "", "label": "", "messages": [message]} for message in form.non_field_errors()]
        for field in form:
            if field.errors and field.is_hidden:
                items.append({"id": "", "label": "", "messages": list(field.errors)})
            elif field.errors:
                items.append({"id": field_element_id(field), "label": field.label, "messages": list(field.errors)})
    return items
