"""Forms of the round pages: creating a round on its course's page, filtering its question table."""

from django import forms

from collector.models import CATEGORY_CHOICES
from core.forms import FilterForm, ServiceErrorsMixin
from mlcore.configs import CATEGORIES


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


class QuestionFilterForm(FilterForm):
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
        """Keyword arguments of ``selectors.questions.round_questions``; an invalid filter counts as unset."""
        data = self.values()
        fooled = {"yes": True, "no": False}.get(data.get("fooled") or "")
        return {
            "category": data.get("category") or None,
            "fooled": fooled,
            "author_id": data.get("author"),
            "search": (data.get("q") or "").strip(),
        }
