"""Forms of the import page: the uploaded file is read and parsed here (``annotation.inputs``),
checked and stored by ``annotation.services.imports``."""
from django import forms

from annotation.inputs import read_upload_json, read_upload_text
from annotation.models import Split


class ArticleImportForm(forms.Form):
    """Upload Wikipedia articles as JSON Lines; blank settings use the project's."""

    file = forms.FileField(help_text='One article per line: {"title", "paragraphs": [...], "links": [...], '
                                     '"has_infobox"?}')
    damping = forms.FloatField(required=False, min_value=0.0, max_value=1.0, help_text="PageRank damping (0.4)")
    top = forms.IntegerField(required=False, min_value=1, help_text="Keep only the N highest-ranked articles")
    require_infobox = forms.BooleanField(required=False, help_text="Skip articles without an infobox")

    def clean_file(self) -> list[str]:
        return read_upload_text(self.cleaned_data["file"]).splitlines()


class SquadImportForm(forms.Form):
    """Upload a SQuAD-2.0 / PQuAD JSON file into one split."""

    file = forms.FileField(help_text="SQuAD-2.0 layout: data / title / paragraphs / context / qas")
    split = forms.ChoiceField(choices=Split.choices, initial=Split.VALIDATION)

    def clean_file(self):
        return read_upload_json(self.cleaned_data["file"])
