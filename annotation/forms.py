"""Forms of the annotation pages (owners' settings, imports, flag decisions).

Forms parse what the browser sends; the services own the rules and their messages, which
``ServiceErrorsMixin`` puts next to the right field.
"""
from django import forms
from django.db.models import QuerySet
from django.utils import timezone

from annotation.models import Paragraph, Project, QuestionFlag, Split
from annotation.services.projects import EDITABLE_FIELDS
from annotation.validation import read_upload_json, read_upload_text
from core.forms import ServiceErrorsMixin
from evaluation.models import EvaluationRun
from modelhub.models import ModelVersion


class ProjectForm(ServiceErrorsMixin, forms.ModelForm):
    """Create (name and language too) or edit a project's settings."""

    class Meta:
        model = Project
        fields = ("name", "language", *EDITABLE_FIELDS)
        widgets = {"instructions": forms.Textarea(attrs={"rows": 4})}

    def __init__(self, *args, creating: bool = True, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["qa_model"].queryset = ModelVersion.objects.filter(kind=ModelVersion.Kind.QUESTION_ANSWERING)
        self.fields["qa_model"].empty_label = "No model in the loop"
        if not creating:
            # The language decides direction and normalisation of everything already collected.
            del self.fields["name"], self.fields["language"]


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


class FlagResolveForm(forms.Form):
    decision = forms.ChoiceField(choices=[("accept", "Accept"), ("reject", "Reject")])
    note = forms.CharField(required=False, max_length=2000)


class FlagFilterForm(forms.Form):
    status = forms.ChoiceField(required=False, choices=[("", "All"), *QuestionFlag.Status.choices])


class ParagraphFilterForm(forms.Form):
    status = forms.ChoiceField(required=False, choices=[("", "Any status"), *Paragraph.Status.choices])
    split = forms.ChoiceField(required=False, choices=[("", "Any split"), *Split.choices])


class SquadExportForm(forms.Form):
    """Options of the SQuAD-2.0 download (a GET form): one split or all, and optionally the weights
    of one of the project's finished evaluation reports (``runs``)."""

    split = forms.ChoiceField(required=False, choices=[("", "All splits"), *Split.choices])
    weights_run = forms.ModelChoiceField(
        required=False, queryset=EvaluationRun.objects.none(), empty_label="No weights",
        label="Weights from evaluation report",
        help_text='Adds each question\'s reweighting weight n·q as "weight" (null where the report weighed none: '
                  "it weighs the train split).",
        error_messages={"invalid_choice": "Choose a finished evaluation report of this project that has weights."},
    )

    def __init__(self, *args, runs: QuerySet[EvaluationRun], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["weights_run"].queryset = runs
        self.fields["weights_run"].label_from_instance = _run_label

    def filename(self, project: Project) -> str:
        data = self.cleaned_data
        run = data.get("weights_run")
        return f"{project.name}-{data.get('split') or 'all'}{f'-weights-{run.pk}' if run else ''}.json"


def _run_label(run: EvaluationRun) -> str:
    finished = f", finished {timezone.localtime(run.finished_at):%Y-%m-%d %H:%M}" if run.finished_at else ""
    return f"Report {run.pk}{finished}"
