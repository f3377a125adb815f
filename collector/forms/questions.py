"""The authoring form: a prompt, four completions, which one is right, categories.

Like every form of the collector's pages, it parses what the browser sends (types, dates, which
boxes are ticked); the services own the rules (non-empty, lengths, duplicates, access), so the form
and the API show the same messages.
"""
import uuid

from django import forms
from django.conf import settings
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from collector.models import CATEGORY_CHOICES, LETTERS, NUM_CHOICES, Round
from core.forms import ServiceErrorsMixin
from mlcore.configs import CATEGORIES

CHOICE_FIELDS = tuple(f"choice_{i}" for i in range(NUM_CHOICES))


class QuestionForm(ServiceErrorsMixin, forms.Form):
    """The authoring form: a prompt, four completions, which one is right, categories."""

    prompt = forms.CharField(
        required=False,
        strip=False,
        help_text=_("Context plus the start of a sentence, e.g. “The man ate the whole pizza by himself. He”"),
        # Not maxlength, which cuts a pasted text without a word: static/js/char_counter.js counts,
        # and clean_question refuses a text over the limit with its length.
        widget=forms.Textarea(attrs={"rows": 3, "data-max-chars": settings.STUMPER_MAX_PROMPT_CHARS, "autofocus": True}),
    )
    answer = forms.TypedChoiceField(
        label=_("Right answer"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[(i, format_lazy(_("Completion {letter} is right"), letter=LETTERS[i])) for i in range(NUM_CHOICES)],
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
                label=format_lazy(_("Completion {letter}"), letter=LETTERS[position]),
                required=False,
                strip=False,
                widget=forms.TextInput(
                    attrs={"data-max-chars": settings.STUMPER_MAX_CHOICE_CHARS, "autocomplete": "off", "data-choice": position}
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
        """The keyword arguments of ``services.questions.question_submit`` from the cleaned data."""
        data = self.cleaned_data
        return {
            "prompt": data["prompt"],
            "choices": [data[name] for name in CHOICE_FIELDS],
            "correct_index": data["answer"],
            "categories": data["categories"],
            "time_spent_seconds": data["time_spent_seconds"] or 0,
            "client_token": data["client_token"],
        }


def category_choices(round_: Round) -> list[tuple[str, str]]:
    """The categories the round offers, as form choices."""
    return [(c, label) for c, label in CATEGORY_CHOICES if c in (round_.categories or [])]
