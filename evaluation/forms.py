"""The form that starts a report; the service checks the same limits again (API callers too)."""
from django import forms

from evaluation.services import DEFAULT_CONFIG, LIMITS


class EvaluationStartForm(forms.Form):
    """Analysis settings of a new report, all with the paper's (SPEC-bias) defaults."""

    k = forms.IntegerField(
        label="Top features per label", initial=DEFAULT_CONFIG["k"], min_value=LIMITS["k"][0], max_value=LIMITS["k"][1],
        help_text="k of the z-score ranking (50 in Serrano et al.).",
    )
    p0 = forms.ChoiceField(
        label="Null for z-scores", initial=DEFAULT_CONFIG["p0"],
        choices=[("uniform", "Uniform, 1/|labels| (the paper)"), ("prior", "Label prior (imbalanced data)")],
        help_text="A round's completions are 1 correct to 3 incorrect; the prior null ranks deviation from that.",
    )
    min_count = forms.IntegerField(
        label="Reweighting: minimum count", required=False, min_value=LIMITS["min_count"][0],
        max_value=LIMITS["min_count"][1],
        help_text="Unigrams in at least this many instances are balanced. Blank: 1% of the instances, 5 to 100.",
    )
    max_steps = forms.IntegerField(
        label="Reweighting: Adam steps", initial=DEFAULT_CONFIG["max_steps"], min_value=LIMITS["max_steps"][0],
        max_value=LIMITS["max_steps"][1],
    )
    seed = forms.IntegerField(
        label="Seed of the bigram sample", initial=DEFAULT_CONFIG["seed"], min_value=LIMITS["seed"][0],
        max_value=LIMITS["seed"][1],
    )

    def config(self) -> dict:
        return {key: self.cleaned_data.get(key) for key in DEFAULT_CONFIG}
