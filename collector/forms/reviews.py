"""Forms of the owner's review and of appeals: accept or reject, edit and accept, appeal, decide an appeal."""

from django import forms
from django.conf import settings
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from collector.forms.questions import CHOICE_FIELDS, category_choices
from collector.models import LETTERS, NUM_CHOICES, Question
from collector.services.reviews import MAX_APPEAL_CHARS, MAX_REASON_CHARS
from core.forms import FilterForm, ServiceErrorsMixin


class ReviewDecisionForm(ServiceErrorsMixin, forms.Form):
    """Accept or reject from the review queue; the pressed button is the action."""

    action = forms.ChoiceField(choices=[("accept", _("Accept")), ("reject", _("Reject"))])
    reason = forms.CharField(
        label=_("Reason (the author sees it)"), required=False, max_length=MAX_REASON_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class QuestionEditForm(ServiceErrorsMixin, forms.Form):
    """The reviewer's edit of a question: fix the text, the key or the categories, then accept."""

    prompt = forms.CharField(label=_("Prompt"), widget=forms.Textarea(attrs={"rows": 3, "data-max-chars": settings.STUMPER_MAX_PROMPT_CHARS}))
    answer = forms.TypedChoiceField(
        label=_("Right completion"), coerce=int, choices=[(i, LETTERS[i]) for i in range(NUM_CHOICES)],
        widget=forms.RadioSelect,
    )
    categories = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    reason = forms.CharField(label=_("Note (the author sees it)"), required=False, max_length=MAX_REASON_CHARS)

    def __init__(self, *args, question: Question, **kwargs) -> None:
        initial = {"prompt": question.prompt, "answer": question.correct_index, "categories": question.categories}
        initial.update(dict(zip(CHOICE_FIELDS, question.choices)))
        kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)
        for position, name in enumerate(CHOICE_FIELDS):
            self.fields[name] = forms.CharField(
                label=format_lazy(_("Completion {letter}"), letter=LETTERS[position]), strip=False,
                widget=forms.TextInput(attrs={"data-max-chars": settings.STUMPER_MAX_CHOICE_CHARS}),
            )
        self.fields["categories"].choices = category_choices(question.round)

    def choice_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in CHOICE_FIELDS]

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {"prompt": data["prompt"], "choices": [data[name] for name in CHOICE_FIELDS],
                "correct_index": data["answer"], "categories": data["categories"], "reason": data["reason"]}


class AppealForm(ServiceErrorsMixin, forms.Form):
    message = forms.CharField(
        label=_("Why should the question be accepted?"), max_length=MAX_APPEAL_CHARS,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class AppealDecisionForm(ServiceErrorsMixin, forms.Form):
    decision = forms.ChoiceField(choices=[("uphold", _("Uphold (accept the question)")), ("deny", _("Deny"))])
    response = forms.CharField(
        label=_("Response (the author sees it; needed to deny)"), required=False, max_length=MAX_REASON_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class ReviewFilterForm(FilterForm):
    STATUS_CHOICES = [("", _("Waiting for you (in review or appealed)")), *Question.Status.choices]

    status = forms.ChoiceField(label=_("Status"), required=False, choices=STATUS_CHOICES)
