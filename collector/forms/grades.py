"""The round page's "Download grades" form."""

from django import forms


class GradesExportForm(forms.Form):
    """The "Download grades" button (GET parameters)."""

    format = forms.ChoiceField(
        choices=[("canvas", "Canvas"), ("moodle", "Moodle"), ("csv", "Plain CSV")], initial="canvas",
    )
    points_possible = forms.FloatField(
        label="Points possible", required=False, min_value=0.0,
        help_text="Empty: points = credit. P: points = min(P, credit), so P credits are full marks.",
    )
