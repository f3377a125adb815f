"""The blind validation form: pick the right completion, flag problems, adjust categories.

As the other forms, it parses what the browser sends; the services own the rules, so the page
and the API give the same messages.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from collector.forms.questions import category_choices
from collector.models import Validation
from collector.selectors.validation import BlindQuestion
from collector.services.validation import MAX_COMMENT_CHARS
from core.forms import ServiceErrorsMixin


class ValidationForm(ServiceErrorsMixin, forms.Form):
    """One blind question: pick the right completion, flag problems, adjust categories."""

    token = forms.CharField(widget=forms.HiddenInput)
    choice = forms.TypedChoiceField(
        label=_("Which completion is right?"), required=False, coerce=int, empty_value=None, widget=forms.RadioSelect,
    )
    flags = forms.MultipleChoiceField(
        label=_("Problems (optional)"), required=False, choices=Validation.Flag.choices,
        widget=forms.CheckboxSelectMultiple,
    )
    categories = forms.MultipleChoiceField(
        label=_("Categories"), required=False, widget=forms.CheckboxSelectMultiple,
        help_text=_("The author's labels; change them if they don't describe what the question tests."),
    )
    comment = forms.CharField(
        label=_("Comment"), required=False, max_length=MAX_COMMENT_CHARS, widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Optional: what is wrong, for the instructor."),
    )

    def __init__(self, *args, blind: BlindQuestion, **kwargs) -> None:
        kwargs.setdefault("initial", {}).update(token=blind.token, categories=list(blind.categories))
        super().__init__(*args, **kwargs)
        self.fields["choice"].choices = [(c.position, f"{c.letter}. {c.text}") for c in blind.choices]
        self.fields["categories"].choices = category_choices(blind.round)

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {"token": data["token"], "position": data["choice"], "flags": data["flags"],
                "categories": data["categories"], "comment": data["comment"]}
