"""The options form of the weighted SQuAD download on the project dashboard (a GET form whose
choices are the project's evaluation reports with weights; evaluation/views/exports.py)."""
from django import forms
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from annotation.models import Project, Split
from evaluation.models import EvaluationRun


class SquadExportForm(forms.Form):
    """Options of the SQuAD-2.0 download (a GET form): one split or all, and optionally the weights
    of one of the project's finished evaluation reports (``runs``)."""

    split = forms.ChoiceField(required=False, choices=[("", gettext_lazy("All splits")), *Split.choices],
                              label=gettext_lazy("Split"))
    weights_run = forms.ModelChoiceField(
        required=False, queryset=EvaluationRun.objects.none(), empty_label=gettext_lazy("No weights"),
        label=gettext_lazy("Weights from evaluation report"),
        help_text=gettext_lazy('Adds each question\'s reweighting weight n·q as "weight" (null where the report '
                               "weighed none: it weighs the train split)."),
        error_messages={"invalid_choice": gettext_lazy("Choose a finished evaluation report of this project that has "
                                                       "weights.")},
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
    if run.finished_at:
        return _("Report %(id)s, finished %(at)s") % {"id": run.pk,
                                                      "at": f"{timezone.localtime(run.finished_at):%Y-%m-%d %H:%M}"}
    return _("Report %(id)s") % {"id": run.pk}
