"""``core/pages.py`` and the list-page half of ``core/forms.py``: paging, filter forms, refused button forms."""
from django import forms
from django.contrib.messages.storage.fallback import FallbackStorage
from django.test import RequestFactory

from core.forms import FilterForm, form_errors
from core.pages import form_refused, paginate


class _Filters(FilterForm):
    status = forms.ChoiceField(required=False, choices=[("", "Any"), ("open", "Open")])
    size = forms.IntegerField(required=False, label="Page size")


def _request(method: str = "get", **data):
    request = getattr(RequestFactory(), method)("/", data)
    request.session = {}
    request._messages = FallbackStorage(request)
    return request


def test_paginate_reads_the_page_parameter_and_forgives_bad_ones():
    items = list(range(45))
    assert list(paginate(_request(page="2"), items, 20)) == list(range(20, 40))
    assert paginate(_request(page="x"), items, 20).number == 1
    assert paginate(_request(page="99"), items, 20).number == 3


def test_filter_values_leave_out_invalid_filters():
    assert _Filters({"status": "open", "size": "many"}).values() == {"status": "open"}
    assert _Filters({}).values() == {"status": "", "size": None}
    assert _Filters().values() == {}


def test_form_refused_flashes_the_errors_after_the_refusal():
    request = _request("post")
    form = _Filters({"status": "shut", "size": "many"})
    assert form_refused(request, form, "Nothing done.", extra_tags="here")
    [message] = list(request._messages)
    assert message.message == f"Nothing done. {form_errors(form)}" and message.extra_tags == "here"
    assert form_errors(form).startswith("Status: Select a valid choice.") and "Page size: Enter a whole number." in \
        form_errors(form)
    assert not form_refused(_request("post"), _Filters({"status": "open"}), "Nothing done.")
