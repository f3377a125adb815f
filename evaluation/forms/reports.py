"""The form that starts a report; the service checks the same limits again (API callers too)."""
from pathlib import Path

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from evaluation.selectors.ambiguity_datasets import ambiguity_datasets
from evaluation.services.ambiguity_datasets import (
    NONE,
    OCCUPATIONS,
    QUESTIONS,
    SERVER,
    UNQOVER,
    Upload,
    ambiguity_dataset_check,
    selectional_requirement,
)
from evaluation.services.reports import DEFAULT_CONFIG, LIMITS


class EvaluationStartForm(forms.Form):
    """Analysis settings of a new report, all with the paper's (SPEC-bias) defaults."""

    k = forms.IntegerField(
        label=_lazy("Top features per label"), initial=DEFAULT_CONFIG["k"], min_value=LIMITS["k"][0], max_value=LIMITS["k"][1],
        help_text=_lazy("k of the z-score ranking (50 in Serrano et al.)."),
    )
    p0 = forms.ChoiceField(
        label=_lazy("Null for z-scores"), initial=DEFAULT_CONFIG["p0"],
        choices=[("uniform", _lazy("Uniform, 1/|labels| (the paper)")), ("prior", _lazy("Label prior (imbalanced data)"))],
        help_text=_lazy("A round's completions are 1 correct to 3 incorrect; the prior null ranks deviation from that."),
    )
    min_count = forms.IntegerField(
        label=_lazy("Reweighting: minimum count"), required=False, min_value=LIMITS["min_count"][0],
        max_value=LIMITS["min_count"][1],
        help_text=_lazy("Unigrams in at least this many instances are balanced. Blank: 1% of the instances, 5 to 100."),
    )
    max_steps = forms.IntegerField(
        label=_lazy("Reweighting: Adam steps"), initial=DEFAULT_CONFIG["max_steps"], min_value=LIMITS["max_steps"][0],
        max_value=LIMITS["max_steps"][1],
    )
    seed = forms.IntegerField(
        label=_lazy("Seed of the bigram sample"), initial=DEFAULT_CONFIG["seed"], min_value=LIMITS["seed"][0],
        max_value=LIMITS["seed"][1],
    )

    def config(self) -> dict:
        return {key: self.cleaned_data.get(key) for key in DEFAULT_CONFIG}

    def start_kwargs(self) -> dict:
        """The keyword arguments of the start service (besides the user and the target)."""
        return {"config": self.config()}


class ProjectEvaluationStartForm(EvaluationStartForm):
    """A project report's settings plus the ambiguity probes' inputs: choose or upload them.

    An upload is checked whole here (the error names its line) and stored by the service only
    when the report starts; it then becomes the choice of its kind.
    """

    ambiguity_questions = forms.ChoiceField(label=_lazy("Selectional ambiguity: question set"), required=False)
    ambiguity_questions_file = forms.FileField(
        label=_lazy("… or upload a question set"), required=False,
        help_text=_lazy("JSON Lines, one “Who discovered the …” question per line with its gold discoverers "
                  "(id, name, question, context, options with name and gender): the format of Mao et al.'s set."),
    )
    occupations = forms.ChoiceField(label=_lazy("Retrieval ambiguity: occupation list"), required=False)
    occupations_file = forms.FileField(
        label=_lazy("… or upload an occupation list"), required=False,
        help_text=_lazy("UnQover's format, one “[p_act] was a nurse” line per occupation; in another language give the "
                  "occupation alone (“[p_act] پرستار”). Use the language of the project's passages."),
    )

    def __init__(self, *args, project, **kwargs):
        super().__init__(*args, **kwargs)
        self.project = project
        questions = [(str(d.pk), d.label) for d in ambiguity_datasets(project=project, kind=QUESTIONS)]
        server = settings.STUMPER_AMBIGUITY_QUESTIONS
        if server:
            questions.append((SERVER, _("The server's set (%(name)s)") % {"name": Path(server).name}))
        self.fields["ambiguity_questions"].choices = [*questions, (NONE, _("None: skip this probe"))]
        self.fields["ambiguity_questions"].initial = questions[0][0] if questions else NONE
        self.selectional_requirement = selectional_requirement(project=project)
        if self.selectional_requirement:
            # Said before anything is chosen or uploaded, not after the upload (the service refuses it too).
            self.fields["ambiguity_questions"].choices = [(NONE, _("None: this probe cannot run without a QA model"))]
            self.fields["ambiguity_questions"].initial = NONE
            self.fields["ambiguity_questions"].help_text = self.selectional_requirement
            self.fields["ambiguity_questions_file"].widget.attrs["disabled"] = True
            self.fields["ambiguity_questions_file"].help_text = self.selectional_requirement
        occupations = [(str(d.pk), d.label) for d in ambiguity_datasets(project=project, kind=OCCUPATIONS)]
        self.fields["occupations"].choices = [*occupations, (UNQOVER, _("UnQover's 70 occupations (English)"))]
        self.fields["occupations"].initial = occupations[0][0] if occupations else UNQOVER

    def _upload(self, field: str, kind: str):
        file = self.cleaned_data.get(field)
        if not file:
            return None
        if file.size > settings.STUMPER_IMPORT_MAX_BYTES:
            raise forms.ValidationError(f"{file.name} is larger than {settings.STUMPER_IMPORT_MAX_BYTES} bytes.")
        upload = Upload(file.name, file.read())
        try:
            ambiguity_dataset_check(kind=kind, upload=upload)
        except ValidationError as error:
            raise forms.ValidationError(" ".join(error.messages)) from None
        return upload

    def clean_ambiguity_questions_file(self):
        if self.selectional_requirement and self.cleaned_data.get("ambiguity_questions_file"):
            raise forms.ValidationError(self.selectional_requirement)
        return self._upload("ambiguity_questions_file", "questions")

    def clean_occupations_file(self):
        return self._upload("occupations_file", "occupations")

    def start_kwargs(self) -> dict:
        return {**super().start_kwargs(), "questions": self.cleaned_data.get("ambiguity_questions"),
                "occupations": self.cleaned_data.get("occupations"),
                "questions_upload": self.cleaned_data.get("ambiguity_questions_file"),
                "occupations_upload": self.cleaned_data.get("occupations_file")}
