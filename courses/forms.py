from django import forms

from core.forms import ServiceErrorsMixin


class CourseCreateForm(ServiceErrorsMixin, forms.Form):
    name = forms.CharField(label="Course name", max_length=200)
