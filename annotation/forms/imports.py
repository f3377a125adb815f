"""Forms of the import page: the uploaded file is read and parsed here (``annotation.inputs``),
checked and stored by ``annotation.services.imports``."""
from django import forms
from django.utils.translation import gettext_lazy as _

from annotation.inputs import read_upload_json, read_upload_text
from annotation.models import Split


class ArticleImportForm(forms.Form):
    """Upload Wikipedia articles as JSON Lines; blank settings use the project's."""

    file = forms.FileField(label=_("File"), help_text=_('One article per line: {"title", "paragraphs": [...], '
                                                      '"links": [...], "has_infobox"?}'))
    damping = forms.FloatField(required=False, min_value=0.0, max_value=1.0, label=_("Damping"),
                               help_text=_("PageRank damping (0.4)"))
    top = forms.IntegerField(required=False, min_value=1, label=_("Top"),
                             help_text=_("Keep only the N highest-ranked articles"))
    require_infobox = forms.BooleanField(required=False, label=_("Require infobox"),
                                         help_text=_("Skip articles without an infobox"))

    def clean_file(self) -> list[str]:
        return read_upload_text(self.cleaned_data["file"]).splitlines()


class SquadImportForm(forms.Form):
    """Upload a SQuAD-2.0 / PQuAD JSON file into one split."""

    file = forms.FileField(label=_("File"), help_text=_("SQuAD-2.0 layout: data / title / paragraphs / context / qas"))
    split = forms.ChoiceField(choices=Split.choices, initial=Split.VALIDATION, label=_("Split"))

    def clean_file(self):
        return read_upload_json(self.cleaned_data["file"])
