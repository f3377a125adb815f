"""The round page's "Score in cross-validation" / "Run answer-only baseline" buttons."""

from django import forms
from django.utils.translation import gettext_lazy as _

from collector.models import ScoringRun


class ScoringStartForm(forms.Form):
    """The round page's "Score in cross-validation" / "Run answer-only baseline" buttons."""

    kind = forms.ChoiceField(choices=ScoringRun.Kind.choices, widget=forms.HiddenInput)
    folds = forms.IntegerField(label=_("Folds"), min_value=2, max_value=20, initial=5, help_text=_("2 to 20"))
    trials = forms.IntegerField(label=_("Trials"), min_value=1, max_value=10, initial=1, help_text=_("1 to 10"))
