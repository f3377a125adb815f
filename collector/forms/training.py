"""The round page's "Train a new live model" form."""

from django import forms
from django.utils.translation import gettext_lazy as _

from core.forms import ServiceErrorsMixin


class ModelTrainForm(ServiceErrorsMixin, forms.Form):
    """Train a new live model on every question so far; optionally make it a round's live model."""

    name = forms.CharField(label=_("New model name"), max_length=100, help_text=_("e.g. fall25-after-round1"))
    make_live_round = forms.TypedChoiceField(
        label=_("Make it the live model of"), required=False, coerce=int, empty_value=None, choices=(),
    )

    def __init__(self, *args, rounds: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["make_live_round"].choices = [("", _("No round (just register it)")), *rounds]
