"""Forms of the owner's review pages: a flag decision, and the filters of the paragraph and flag lists."""
from django import forms

from annotation.models import Paragraph, QuestionFlag, Split
from core.forms import FilterForm


class FlagResolveForm(forms.Form):
    decision = forms.ChoiceField(choices=[("accept", "Accept"), ("reject", "Reject")])
    note = forms.CharField(required=False, max_length=2000)


class FlagFilterForm(FilterForm):
    status = forms.ChoiceField(required=False, choices=[("", "All"), *QuestionFlag.Status.choices])


class ParagraphFilterForm(FilterForm):
    status = forms.ChoiceField(required=False, choices=[("", "Any status"), *Paragraph.Status.choices])
    split = forms.ChoiceField(required=False, choices=[("", "Any split"), *Split.choices])
