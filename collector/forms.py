"""Forms of the collector's HTML pages.

They parse what the browser sends (types, dates, which boxes are ticked); the services own the
rules (non-empty, lengths, duplicates, access), so the form and the API show the same messages.
"""
import uuid

from django import forms
from django.conf import settings

from collector.models import CATEGORY_CHOICES, LETTERS, NUM_CHOICES, Round, ScoringRun
from collector.round_settings import SCORING_FIELDS
from collector.round_settings import SCORING_LIMITS as LIMITS
from core.forms import ServiceErrorsMixin
from mlcore.configs import CATEGORIES

CHOICE_FIELDS = tuple(f"choice_{i}" for i in range(NUM_CHOICES))


class QuestionForm(ServiceErrorsMixin, forms.Form):
    """The authoring form: a prompt, four completions, which one is right, categories."""

    prompt = forms.CharField(
        required=False,
        strip=False,
        help_text="Context plus the start of a sentence, e.g. “The man ate the whole pizza by himself. He”",
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": settings.STUMPER_MAX_PROMPT_CHARS, "autofocus": True}),
    )
    answer = forms.TypedChoiceField(
        label="Right answer",
        required=False,
        coerce=int,
        empty_value=None,
        choices=[(i, f"Completion {LETTERS[i]} is right") for i in range(NUM_CHOICES)],
        widget=forms.RadioSelect,
    )
    categories = forms.MultipleChoiceField(required=False, choices=(), widget=forms.CheckboxSelectMultiple)
    # Filled in by author.js; a missing or odd value only loses the timing, never the question.
    time_spent_seconds = forms.CharField(required=False, initial=0, widget=forms.HiddenInput)
    client_token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, round_: Round, **kwargs) -> None:
        kwargs.setdefault("initial", {}).setdefault("client_token", uuid.uuid4())
        super().__init__(*args, **kwargs)
        for position, name in enumerate(CHOICE_FIELDS):
            self.fields[name] = forms.CharField(
                label=f"Completion {LETTERS[position]}",
                required=False,
                strip=False,
                widget=forms.TextInput(
                    attrs={"maxlength": settings.STUMPER_MAX_CHOICE_CHARS, "autocomplete": "off", "data-choice": position}
                ),
            )
        offered = [c for c in CATEGORIES if c in (round_.categories or [])]
        self.fields["categories"].choices = [(c, label) for c, label in CATEGORY_CHOICES if c in offered]

    def clean_time_spent_seconds(self) -> int:
        try:
            return max(0, int(float(self.cleaned_data.get("time_spent_seconds") or 0)))
        except (TypeError, ValueError, OverflowError):
            return 0

    def choice_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in CHOICE_FIELDS]

    def choice_rows(self) -> list[tuple[forms.BoundField, object]]:
        """Each completion's text field next to its "this one is right" radio button."""
        return list(zip(self.choice_fields(), self["answer"]))

    def service_kwargs(self) -> dict:
        """The keyword arguments of ``services.question_submit`` from the cleaned data."""
        data = self.cleaned_data
        return {
            "prompt": data["prompt"],
            "choices": [data[name] for name in CHOICE_FIELDS],
            "correct_index": data["answer"],
            "categories": data["categories"],
            "time_spent_seconds": data["time_spent_seconds"] or 0,
            "client_token": data["client_token"],
        }


class RoundCreateForm(ServiceErrorsMixin, forms.Form):
    name = forms.CharField(
        max_length=100,
        help_text="A short id without spaces, e.g. fall25-round1.",
    )
    title = forms.CharField(max_length=200, required=False, help_text="What students see, e.g. “Round 1: idioms”.")
    instructions = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))
    opens_at = forms.DateTimeField(
        label="Opens", required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="Empty: open now.",
    )
    closes_at = forms.DateTimeField(
        label="Closes", required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="Empty: never closes.",
    )
    weight_live = forms.FloatField(label="Credit for fooling the live model", initial=1.0, min_value=0.0)
    weight_cv = forms.FloatField(label="Credit for fooling the cross-validated model", initial=1.0, min_value=0.0)
    categories = forms.MultipleChoiceField(
        choices=CATEGORY_CHOICES, initial=list(CATEGORIES), widget=forms.CheckboxSelectMultiple,
        help_text="Categories authors may tag their questions with.",
    )


class QuestionFilterForm(forms.Form):
    """Filters of the instructor's question table (GET parameters; invalid ones are ignored)."""

    FOOLED_CHOICES = [("", "Any"), ("yes", "Fooled"), ("no", "Not fooled")]

    q = forms.CharField(label="Search prompts", required=False, max_length=200)
    category = forms.ChoiceField(required=False, choices=[("", "Any"), *CATEGORY_CHOICES])
    fooled = forms.ChoiceField(required=False, choices=FOOLED_CHOICES)
    author = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, choices=())

    def __init__(self, *args, authors: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["author"].choices = [("", "Anyone"), *authors]

    def selector_kwargs(self) -> dict:
        """Keyword arguments of ``selectors.round_questions``; an invalid filter counts as unset."""
        self.is_valid()  # cleaned_data keeps the fields that are valid even when others are not
        data = self.cleaned_data
        fooled = {"yes": True, "no": False}.get(data.get("fooled") or "")
        return {
            "category": data.get("category") or None,
            "fooled": fooled,
            "author_id": data.get("author"),
            "search": (data.get("q") or "").strip(),
        }


class ScoringStartForm(forms.Form):
    """The round page's "Score in cross-validation" / "Run answer-only baseline" buttons."""

    kind = forms.ChoiceField(choices=ScoringRun.Kind.choices, widget=forms.HiddenInput)
    folds = forms.IntegerField(min_value=2, max_value=20, initial=5, help_text="2 to 20")
    trials = forms.IntegerField(min_value=1, max_value=10, initial=1, help_text="1 to 10")


class ModelTrainForm(ServiceErrorsMixin, forms.Form):
    """Train a new live model on every question so far; optionally make it a round's live model."""

    name = forms.CharField(label="New model name", max_length=100, help_text="e.g. fall25-after-round1")
    make_live_round = forms.TypedChoiceField(
        label="Make it the live model of", required=False, coerce=int, empty_value=None, choices=(),
    )

    def __init__(self, *args, rounds: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["make_live_round"].choices = [("", "No round (just register it)"), *rounds]


class GradesExportForm(forms.Form):
    """The "Download grades" button (GET parameters)."""

    format = forms.ChoiceField(
        choices=[("canvas", "Canvas"), ("moodle", "Moodle"), ("csv", "Plain CSV")], initial="canvas",
    )
    points_possible = forms.FloatField(
        label="Points possible", required=False, min_value=0.0,
        help_text="Empty: points = credit. P: points = min(P, credit), so P credits are full marks.",
    )


BF16_CHOICES = [
    ("auto", "Auto: only where the worker's CPU computes bfloat16 natively"),
    ("on", "On: always (slow on CPUs without AVX512-BF16 or AMX)"),
    ("off", "Off: float32"),
]


class RoundSettingsForm(ServiceErrorsMixin, forms.Form):
    """A round's settings after creation; scoring settings apply to the next scoring run."""

    title = forms.CharField(max_length=200, required=False)
    instructions = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))
    opens_at = forms.DateTimeField(label="Opens", required=False,
                                   widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"))
    closes_at = forms.DateTimeField(label="Closes", required=False,
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"))
    weight_live = forms.FloatField(label="Credit for fooling the live model", min_value=0.0)
    weight_cv = forms.FloatField(label="Credit for fooling the cross-validated model", min_value=0.0,
                                 help_text="CODAH suggests raising it once the live model is updated between rounds.")
    live_model = forms.ChoiceField(label="Live model")
    base_checkpoint = forms.CharField(
        label="Base checkpoint for scoring", max_length=500, required=False,
        help_text="Folder or hub id fine-tuned in cross-validation; empty: the server default.",
    )
    epochs = forms.IntegerField(min_value=LIMITS["epochs"][0], max_value=LIMITS["epochs"][1])
    learning_rate = forms.FloatField(min_value=LIMITS["learning_rate"][0], max_value=LIMITS["learning_rate"][1])
    batch_size = forms.IntegerField(label="Batch size (questions)", min_value=LIMITS["batch_size"][0],
                                    max_value=LIMITS["batch_size"][1])
    max_length = forms.IntegerField(label="Max tokens per completion", min_value=LIMITS["max_length"][0],
                                    max_value=LIMITS["max_length"][1])
    freeze_layers = forms.IntegerField(
        label="Frozen lower layers", min_value=LIMITS["freeze_layers"][0], max_value=LIMITS["freeze_layers"][1],
        help_text="Frozen layers run once per question and are cached: more is faster, fewer is more accurate.",
    )
    bf16 = forms.ChoiceField(
        label="bfloat16 training", choices=BF16_CHOICES,
        help_text="bfloat16 roughly halves training time on CPUs with AVX512-BF16 or AMX and makes it several "
                  "times slower on the others, which emulate it.",
    )
    threads = forms.IntegerField(label="CPU threads", min_value=LIMITS["threads"][0], max_value=LIMITS["threads"][1],
                                 help_text="0: every CPU the worker may use.")

    SCORING = SCORING_FIELDS

    def __init__(self, *args, model_choices: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["live_model"].choices = model_choices

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        scoring = {name: data.pop(name) for name in self.SCORING}
        data["live_model"] = int(data["live_model"])
        return {**data, "scoring": scoring}
