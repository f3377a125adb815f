"""What the apps' HTML pages share: one page of a long list, chosen by ``?page=``; a button's form
refused with a flash message."""
from collections.abc import Sequence

from django import forms
from django.contrib import messages
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest

from core.forms import form_errors


def paginate(request: HttpRequest, items: QuerySet | Sequence, per_page: int) -> Page:
    """The page of ``items`` that ``?page=`` asks for; a missing or bad number gives the first page and one
    past the end the last, so a stale link still shows a page (the template's pager is ``page_obj``)."""
    return Paginator(items, per_page).get_page(request.GET.get("page"))


def form_refused(request: HttpRequest, form: forms.Form, refused: str, **message_options) -> bool:
    """Whether ``form`` is invalid. If it is, a flash message says ``refused`` ("Scoring not started.")
    and then the form's errors on one line; ``message_options`` go to ``messages.error`` (``extra_tags``)."""
    if form.is_valid():
        return False
    messages.error(request, f"{refused} {form_errors(form)}", **message_options)
    return True
