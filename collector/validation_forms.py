"""Forms of the quality loop's pages: validating, reviewing, appealing, the round's settings.

As in ``forms.py`` they parse what the browser sends; the services own the rules, so the pages
and the API give the same messages.
"""
from django import forms
from django.conf import settings

from collector.forms import CHOICE_FIELDS
from collector.models import CATEGORY_CHOICES, LETTERS, NUM_CHOICES, PeerValidation, Question, Round, Validation
from collector.validation_selectors import BlindQuestion
from collector.validation_services import MAX_APPEAL_CHARS, MAX_COMMENT_CHARS, MAX_REASON_CHARS
from core.forms import ServiceErrorsMixin


def _category_choices(round_: Round) -> list[tuple[str, str]]:
    return [(c, label) for c, label in CATEGORY_CHOICES if c in (round_.categories or [])]


class ValidationForm(ServiceErrorsMixin, forms.Form):
    """One blind question: pick the right completion, flag problems, adjust categories."""

    token = forms.CharField(widget=forms.HiddenInput)
    choice = forms.TypedChoiceField(
        label="Which completion is right?", required=False, coerce=int, empty_value=None, widget=forms.RadioSelect,
    )
    flags = forms.MultipleChoiceField(
        label="Problems (optional)", required=False, choices=Validation.Flag.choices,
        widget=forms.CheckboxSelectMultiple,
    )
    categories = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple,
        help_text="The author's labels; change them if they don't describe what the question tests.",
    )
    comment = forms.CharField(
        required=False, max_length=MAX_COMMENT_CHARS, widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Optional: what is wrong, for the instructor.",
    )

    def __init__(self, *args, blind: BlindQuestion, **kwargs) -> None:
        kwargs.setdefault("initial", {}).update(token=blind.token, categories=list(blind.categories))
        super().__init__(*args, **kwargs)
        self.fields["choice"].choices = [(c.position, f"{c.letter}. {c.text}") for c in blind.choices]
        self.fields["categories"].choices = _category_choices(blind.round)

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {"token": data["token"], "position": data["choice"], "flags": data["flags"],
                "categories": data["categories"], "comment": data["comment"]}


class ReviewDecisionForm(ServiceErrorsMixin, forms.Form):
    """Accept or reject from the review queue; the pressed button is the action."""

    action = forms.ChoiceField(choices=[("accept", "Accept"), ("reject", "Reject")])
    reason = forms.CharField(
        label="Reason (the author sees it)", required=False, max_length=MAX_REASON_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class QuestionEditForm(ServiceErrorsMixin, forms.Form):
    """The reviewer's edit of a question: fix the text, the key or the categories, then accept."""

    prompt = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "maxlength": settings.STUMPER_MAX_PROMPT_CHARS}))
    answer = forms.TypedChoiceField(
        label="Right completion", coerce=int, choices=[(i, LETTERS[i]) for i in range(NUM_CHOICES)],
        widget=forms.RadioSelect,
    )
    categories = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    reason = forms.CharField(label="Note (the author sees it)", required=False, max_length=MAX_REASON_CHARS)

    def __init__(self, *args, question: Question, **kwargs) -> None:
        initial = {"prompt": question.prompt, "answer": question.correct_index, "categories": question.categories}
        initial.update(dict(zip(CHOICE_FIELDS, question.choices)))
        kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)
        for position, name in enumerate(CHOICE_FIELDS):
            self.fields[name] = forms.CharField(
                label=f"Completion {LETTERS[position]}", strip=False,
                widget=forms.TextInput(attrs={"maxlength": settings.STUMPER_MAX_CHOICE_CHARS}),
            )
        self.fields["categories"].choices = _category_choices(question.round)

    def choice_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in CHOICE_FIELDS]

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {"prompt": data["prompt"], "choices": [data[name] for name in CHOICE_FIELDS],
                "correct_index": data["answer"], "categories": data["categories"], "reason": data["reason"]}


class AppealForm(ServiceErrorsMixin, forms.Form):
    message = forms.CharField(
        label="Why should the question be accepted?", max_length=MAX_APPEAL_CHARS,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class AppealDecisionForm(ServiceErrorsMixin, forms.Form):
    decision = forms.ChoiceField(choices=[("uphold", "Uphold (accept the question)"), ("deny", "Deny")])
    response = forms.CharField(
        label="Response (the author sees it; needed to deny)", required=False, max_length=MAX_REASON_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class ReviewFilterForm(forms.Form):
    STATUS_CHOICES = [("", "Waiting for you (in review or appealed)"), *Question.Status.choices]

    status = forms.ChoiceField(required=False, choices=STATUS_CHOICES)


class QualitySettingsForm(ServiceErrorsMixin, forms.Form):
    """How a round's questions are validated and which coach warnings authors see."""

    validations_required = forms.IntegerField(
        label="Agreeing validators needed to accept", min_value=1, max_value=10,
        help_text="Any disagreement or flag sends the question to your review instead.",
    )
    peer_validation = forms.ChoiceField(
        label="Students validate each other's questions", choices=PeerValidation.choices,
        help_text="Instructors can always validate. “Once the round has closed” needs a closing date.",
    )
    credit_requires_acceptance = forms.BooleanField(
        label="Credit only for accepted questions", required=False,
        help_text="Otherwise questions awaiting validation count provisionally; rejected ones never count.",
    )
    coach_answer_only = forms.BooleanField(label="Answer-only model finds the answer", required=False)
    coach_words = forms.BooleanField(label="Words typical of right answers", required=False)
    coach_length = forms.BooleanField(label="Right completion much longer or shorter", required=False)
    coach_duplicates = forms.BooleanField(label="Very similar to an existing question", required=False)

    COACH_FIELDS = ("coach_answer_only", "coach_words", "coach_length", "coach_duplicates")

    @classmethod
    def for_round(cls, round_: Round, data=None) -> "QualitySettingsForm":
        initial = {name: getattr(round_, name) for name in cls.base_fields}
        return cls(data, initial=initial)

    def coach_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.COACH_FIELDS]
