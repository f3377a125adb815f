from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.forms import SignupForm
from core.forms import ServiceErrorsMixin
from courses.models import StaffRole


class CourseCreateForm(ServiceErrorsMixin, forms.Form):
    name = forms.CharField(label=_("Course name"), max_length=200)


class CourseStaffAddForm(ServiceErrorsMixin, forms.Form):
    who = forms.CharField(
        label=_("Username or e-mail"), max_length=254,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
        help_text=_("Of an existing account. Someone without one: send them the instructor invite link."),
    )
    role = forms.ChoiceField(
        label=_("Role"), choices=[(StaffRole.INSTRUCTOR, StaffRole.INSTRUCTOR.label), (StaffRole.TA, StaffRole.TA.label)],
        initial=StaffRole.TA, widget=forms.RadioSelect,
    )


class InstructorSignupForm(SignupForm):
    """A new instructor's account, made on the instructor invite page: the sign-up form without a join code."""

    join_code = None
