"""Forms of the owner's review pages: a flag decision, and the filters of the paragraph and flag lists."""
from django import forms
from django.utils.translation import gettext_lazy as _

from annotation.models import Paragraph, QuestionFlag, Split
from core.forms import FilterForm


class FlagResolveForm(forms.Form):
    decision = forms.ChoiceField(choices=[("accept", _("Accept")), ("reject", _("Reject"))])
    note = forms.CharField(required=False, max_length=2000)


class FlagFilterForm(FilterForm):
    status = forms.ChoiceField(required=False, choices=[("", _("All")), *QuestionFlag.Status.choices], label=_("Status"))


class ParagraphFilterForm(FilterForm):
    status = forms.ChoiceField(required=False, choices=[("", _("Any status")), *Paragraph.Status.choices],
                               label=_("Status"))
    split = forms.ChoiceField(required=False, choices=[("", _("Any split")), *Split.choices], label=_("Split"))
