"""The round page's "Download grades" form."""

from django import forms
from django.utils.translation import gettext_lazy as _

from collector.presentation.grades import FORMAT_LABELS, FORMATS


class GradesExportForm(forms.Form):
    """The "Download grades" button (GET parameters)."""

    format = forms.ChoiceField(
        choices=[(fmt, FORMAT_LABELS[fmt]) for fmt in FORMATS], initial="canvas",
        help_text=_("Canvas matches each row on SIS User ID, else SIS Login ID (for accounts made by an LMS launch: "
                   "the LMS's SIS id and e-mail). Moodle matches on Email address (map it to the user field "
                   "“Email address”). Plain CSV lists everyone by username. A student with no value for the key "
                   "is left out of the file."),
    )
    points_possible = forms.FloatField(
        label=_("Points possible"), required=False, min_value=0.0,
        help_text=_("Empty: points = credit. P: points = min(P, credit), so P credits are full marks."),
    )
