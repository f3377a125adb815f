"""The round page's "Score in cross-validation" / "Run answer-only baseline" buttons."""

from django import forms

from collector.models import ScoringRun


class ScoringStartForm(forms.Form):
    """The round page's "Score in cross-validation" / "Run answer-only baseline" buttons."""

    kind = forms.ChoiceField(choices=ScoringRun.Kind.choices, widget=forms.HiddenInput)
    folds = forms.IntegerField(min_value=2, max_value=20, initial=5, help_text="2 to 20")
    trials = forms.IntegerField(min_value=1, max_value=10, initial=1, help_text="1 to 10")
