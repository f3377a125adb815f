"""The round settings page's form: dates, credit, live model and scoring (``RoundSettingsForm``), and
validation and coach settings (``QualitySettingsForm``), posted together."""

from django import forms
from django.utils.translation import gettext_lazy as _

from collector.models import PeerValidation, Round
from collector.services.round_settings import SCORING_FIELDS
from collector.services.round_settings import SCORING_LIMITS as LIMITS
from core.forms import ServiceErrorsMixin

BF16_CHOICES = [
    ("auto", _("Auto: only where the worker's CPU computes bfloat16 natively")),
    ("on", _("On: always (slow on CPUs without AVX512-BF16 or AMX)")),
    ("off", _("Off: float32")),
]


class RoundSettingsForm(ServiceErrorsMixin, forms.Form):
    """A round's settings after creation; scoring settings apply to the next scoring run."""

    title = forms.CharField(label=_("Title"), max_length=200, required=False)
    instructions = forms.CharField(label=_("Instructions"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
    opens_at = forms.DateTimeField(label=_("Opens"), required=False,
                                   widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"))
    closes_at = forms.DateTimeField(label=_("Closes"), required=False,
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"))
    weight_live = forms.FloatField(label=_("Credit for fooling the live model"), min_value=0.0)
    weight_cv = forms.FloatField(label=_("Credit for fooling the cross-validated model"), min_value=0.0,
                                 help_text=_("CODAH suggests raising it once the live model is updated between rounds."))
    live_model = forms.ChoiceField(label=_("Live model"))
    base_checkpoint = forms.CharField(
        label=_("Base checkpoint for scoring"), max_length=500, required=False,
        help_text=_("Folder or hub id fine-tuned in cross-validation; empty: the server default."),
    )
    epochs = forms.IntegerField(label=_("Epochs"), min_value=LIMITS["epochs"][0], max_value=LIMITS["epochs"][1])
    learning_rate = forms.FloatField(label=_("Learning rate"), min_value=LIMITS["learning_rate"][0], max_value=LIMITS["learning_rate"][1])
    batch_size = forms.IntegerField(label=_("Batch size (questions)"), min_value=LIMITS["batch_size"][0],
                                    max_value=LIMITS["batch_size"][1])
    max_length = forms.IntegerField(label=_("Max tokens per completion"), min_value=LIMITS["max_length"][0],
                                    max_value=LIMITS["max_length"][1])
    freeze_layers = forms.IntegerField(
        label=_("Frozen lower layers"), min_value=LIMITS["freeze_layers"][0], max_value=LIMITS["freeze_layers"][1],
        help_text=_("Frozen layers run once per question and are cached: more is faster, fewer is more accurate "
                  "(on CODAH, 2 instead of the default 3 gained about 2.5 points at 1.4x the time per step)."),
    )
    bf16 = forms.ChoiceField(
        label=_("bfloat16 training"), choices=BF16_CHOICES,
        help_text=_("bfloat16 roughly halves training time on CPUs with AVX512-BF16 or AMX and makes it several "
                  "times slower on the others, which emulate it."),
    )
    threads = forms.IntegerField(label=_("CPU threads"), min_value=LIMITS["threads"][0], max_value=LIMITS["threads"][1],
                                 help_text=_("0: every CPU the worker may use."))

    SCORING = SCORING_FIELDS

    def __init__(self, *args, model_choices: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["live_model"].choices = model_choices

    def service_kwargs(self) -> dict:
        """``round_update``'s keyword arguments from the fields that were read (all of them once the
        form is valid; after a refusal, those the service may still check)."""
        data = dict(self.cleaned_data)
        scoring = {name: data.pop(name) for name in self.SCORING if name in data}
        if "live_model" in data:
            data["live_model"] = int(data["live_model"])
        return {**data, "scoring": scoring}


class QualitySettingsForm(ServiceErrorsMixin, forms.Form):
    """How a round's questions are validated and which coach warnings authors see."""

    validations_required = forms.IntegerField(
        label=_("Agreeing validators needed to accept"), min_value=1, max_value=10,
        help_text=_("Any disagreement or flag sends the question to your review instead."),
    )
    peer_validation = forms.ChoiceField(
        label=_("Students validate each other's questions"), choices=PeerValidation.choices,
        help_text=_("Instructors can always validate. “Once the round has closed” needs a closing date."),
    )
    credit_requires_acceptance = forms.BooleanField(
        label=_("Credit only for accepted questions"), required=False,
        help_text=_("Otherwise questions awaiting validation count provisionally; rejected ones never count."),
    )
    coach_answer_only = forms.BooleanField(label=_("Answer-only model finds the answer"), required=False)
    coach_words = forms.BooleanField(label=_("Words typical of right answers"), required=False)
    coach_length = forms.BooleanField(label=_("Right completion much longer or shorter"), required=False)
    coach_duplicates = forms.BooleanField(label=_("Very similar to an existing question"), required=False)

    COACH_FIELDS = ("coach_answer_only", "coach_words", "coach_length", "coach_duplicates")

    @classmethod
    def for_round(cls, round_: Round, data=None) -> "QualitySettingsForm":
        initial = {name: getattr(round_, name) for name in cls.base_fields}
        return cls(data, initial=initial)

    def coach_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.COACH_FIELDS]
