"""The error pages people see with DEBUG off (as the start script and production run): an address or an
object that does not exist is a 404 inside the site's layout, a refusal a 403 that says why, an
unexpected error a standalone 500 page; each in the person's language (their Language choice, the
``django_language`` cookie). What does not exist is 404 on pages and APIs alike; what exists but is
not yours stays 403 with its reason (tests/test_security_authz.py has every route)."""
import html

import pytest
from django.conf import settings
from django.test import Client
from django.urls import path, reverse
from django.utils import translation
from rest_framework.test import APIClient

from config import urls as config_urls

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.test_error_pages")]

PERSIAN = {settings.LANGUAGE_COOKIE_NAME: "fa"}


def _boom(request):
    raise RuntimeError("disk full")


# The project's URLs and its 404 handler, and one page that fails (for the 500 page).
urlpatterns = [*config_urls.urlpatterns, path("boom/", _boom)]
handler404 = config_urls.handler404


@pytest.fixture(autouse=True)
def _debug_off(settings):
    settings.DEBUG = False
    yield
    translation.deactivate()  # a request leaves its language active in this thread; the next test starts clean


def _client(user=None, language: str | None = None, **options) -> Client:
    client = Client(**options)
    if user is not None:
        client.force_login(user)
    if language:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def test_an_unknown_address_is_the_styled_404_in_english(instructor):
    response = _client(instructor).get("/no-such-page/")
    page = response.content.decode()
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")
    assert '<html lang="en" dir="ltr">' in page and "<h1>Page not found</h1>" in page
    assert "There is nothing at this address." in page and "Back to your start page" in page
    assert 'class="site-header"' in page and reverse("inbox:inbox") in page  # the layout and its menu
    # Not Django's developer page, which lists every URL pattern, nor the resolver's name for "no match".
    assert "URLconf" not in page and "Resolver404" not in page and "api/schema" not in page


def test_an_unknown_address_is_the_styled_404_in_persian_for_someone_signed_out():
    response = _client(language="fa").get("/rounds/1/no-such-page/")
    page = response.content.decode()
    assert response.status_code == 404
    assert '<html lang="fa" dir="rtl">' in page
    assert "<h1>صفحه پیدا نشد</h1>" in page and "در این نشانی چیزی نیست." in page
    assert "بازگشت به صفحهٔ آغاز" in page and "Page not found" not in page
    assert reverse("accounts:login") in page  # the signed-out menu


def test_a_missing_round_is_404_with_its_reason_on_the_page_and_in_the_api(instructor, round_):
    page = _client(instructor).get(reverse("collector:round_detail", args=[round_.pk + 1000]))
    assert page.status_code == 404 and "This round does not exist." in page.content.decode()
    assert "<h1>Page not found</h1>" in page.content.decode()
    api = APIClient()
    api.force_authenticate(instructor)
    response = api.get(reverse("api:round_detail", args=[round_.pk + 1000]))
    assert response.status_code == 404 and response.json() == {"detail": "This round does not exist."}
    # The round that exists is still the course's instructors' only: 403, saying why.
    api.force_authenticate(_other_instructor())
    refused = api.get(reverse("api:round_detail", args=[round_.pk]))
    assert refused.status_code == 403 and "instructors" in refused.json()["detail"]


def _other_instructor():
    from accounts.tests.factories import make_user

    return make_user("otherprof", role="instructor")


def test_a_missing_annotation_task_is_404_in_the_workers_language(crowdworker):
    response = _client(crowdworker, language="fa").get(reverse("annotation:session", args=[987654]))
    page = response.content.decode()
    assert response.status_code == 404
    assert "<h1>صفحه پیدا نشد</h1>" in page and "این کار برچسب‌گذاری وجود ندارد." in page


def test_a_refusal_is_the_403_page_in_persian(student):
    response = _client(student, language="fa").get(reverse("inbox:inbox"))
    page = response.content.decode()
    assert response.status_code == 403 and '<html lang="fa" dir="rtl">' in page
    assert "<h1>نمی‌توانید این صفحه را باز کنید</h1>" in page
    assert "The inbox is the instructors' start page." in html.unescape(page)  # the reason the code gave


@pytest.mark.parametrize(("language", "root", "heading"), [
    (None, '<html lang="en" dir="ltr">', "<h1>Something went wrong</h1>"),
    ("fa", '<html lang="fa" dir="rtl">', "<h1>مشکلی پیش آمد</h1>"),
])
def test_an_unexpected_error_is_the_standalone_500_page(instructor, language, root, heading):
    response = _client(instructor, language=language, raise_request_exception=False).get("/boom/")
    page = response.content.decode()
    assert response.status_code == 500
    assert root in page and heading in page and 'href="/"' in page
    assert "disk full" not in page and "Traceback" not in page  # the details stay in the log
    assert "<script" not in page  # nothing inline for the CSP to block, and no menu that needs the database
