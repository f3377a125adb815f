"""The round's import page: a CODAH TSV or JSON file, previewed, then imported (``views/imports.py``).

The file is read here (``cleaning.import_file_text``); the import service checks and stores it. The
preview keeps the file's text on the server for the import that follows (``services.imports``'s
``import_stage``), so the file is chosen once: ``staged`` names it.
"""
from django import forms
from django.utils.translation import gettext_lazy as _

from collector.cleaning import import_file_text
from collector.services.imports import CODAH_SOURCE


class RoundImportForm(forms.Form):
    file = forms.FileField(
        label=_("File"), required=False,
        help_text=_("CODAH TSV (7 tab-separated fields, no header: category letters, prompt, 4 completions, the right "
                  "one's index 0–3), or JSON: one object per line, as the round's JSON Lines export writes them, or an "
                  "array of them, each with prompt, choices (4), answer (0–3) and categories (names)."),
    )
    allow_duplicate_choices = forms.BooleanField(
        label=_("Accept rows that repeat a completion"), required=False,
        help_text=_("Three rows of the public CODAH release do; questions written here never may."),
    )
    source_dataset = forms.CharField(
        label=_("Source dataset"), required=False, initial=CODAH_SOURCE, max_length=200,
        help_text=_("The Hugging Face Hub id of the dataset the file comes from, recorded for the round's dataset "
                  "release (empty: none)."),
    )
    source_license = forms.CharField(
        label=_("Its license"), required=False, max_length=64,
        help_text=_("A Hub license id; known for codah, squad_v2 and pquad."),
    )
    # The previewed file, kept on the server; the import that follows needs no second upload.
    staged = forms.CharField(required=False, widget=forms.HiddenInput, max_length=64)
    staged_name = forms.CharField(required=False, widget=forms.HiddenInput, max_length=255)

    def clean_file(self) -> str | None:
        upload = self.cleaned_data.get("file")
        return None if upload is None else import_file_text(upload)

    def clean(self) -> dict:
        data = super().clean()
        if data.get("file") is None and not data.get("staged") and "file" not in self.errors:
            self.add_error("file", _("Choose a file to import."))
        if data.get("file") is not None:  # a new file replaces the previewed one
            data["staged"], data["staged_name"] = "", self.files["file"].name
        return data

    def import_options(self) -> dict:
        """The import service's options from the cleaned data."""
        return {name: self.cleaned_data[name]
                for name in ("allow_duplicate_choices", "source_dataset", "source_license")}
