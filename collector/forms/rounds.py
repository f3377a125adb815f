"""Forms of the round pages: creating a round on its course's page, filtering its question table."""

from django import forms
from django.utils.translation import gettext_lazy as _

from collector.models import CATEGORY_CHOICES
from core.forms import FilterForm, ServiceErrorsMixin
from mlcore.configs import CATEGORIES


class RoundCreateForm(ServiceErrorsMixin, forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=100,
        help_text=_("A short id without spaces, e.g. fall25-round1."),
    )
    title = forms.CharField(label=_("Title"), max_length=200, required=False,
                            help_text=_("What students see, e.g. “Round 1: idioms”."))
    instructions = forms.CharField(label=_("Instructions"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
    opens_at = forms.DateTimeField(
        label=_("Opens"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("Empty: open now."),
    )
    closes_at = forms.DateTimeField(
        label=_("Closes"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("Empty: never closes."),
    )
    weight_live = forms.FloatField(label=_("Credit for fooling the live model"), initial=1.0, min_value=0.0)
    weight_cv = forms.FloatField(label=_("Credit for fooling the cross-validated model"), initial=1.0, min_value=0.0)
    categories = forms.MultipleChoiceField(
        choices=CATEGORY_CHOICES, initial=list(CATEGORIES), widget=forms.CheckboxSelectMultiple,
        label=_("Categories"), help_text=_("Categories authors may tag their questions with."),
    )


class QuestionFilterForm(FilterForm):
    """Filters of the instructor's question table (GET parameters; invalid ones are ignored)."""

    FOOLED_CHOICES = [("", _("Any")), ("yes", _("Fooled")), ("no", _("Not fooled"))]

    q = forms.CharField(label=_("Search prompts"), required=False, max_length=200)
    category = forms.ChoiceField(label=_("Category"), required=False, choices=[("", _("Any")), *CATEGORY_CHOICES])
    fooled = forms.ChoiceField(label=_("Fooled"), required=False, choices=FOOLED_CHOICES)
    author = forms.TypedChoiceField(label=_("Author"), required=False, coerce=int, empty_value=None, choices=())
    sort = forms.ChoiceField(label=_("Order"), required=False,
                             choices=[("", _("Newest first")), ("quality", _("Quality, highest first"))])

    def __init__(self, *args, authors: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["author"].choices = [("", _("Anyone")), *authors]

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

    def sort_by_quality(self) -> bool:
        """Whether the table is ordered by item quality (best first) instead of newest first."""
        return self.values().get("sort") == "quality"
