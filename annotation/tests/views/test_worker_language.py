"""The crowdworker pages speak the project's language unless the worker switched (and it is remembered)."""
import pytest
from django.conf import settings
from django.urls import reverse

from annotation.i18n import DISCARD_REASONS, SESSION_STATUS, SPLITS
from annotation.models import AnnotationSession, Split

pytestmark = pytest.mark.django_db
ZWNJ = "\u200c"


def test_a_persian_project_shows_the_task_list_in_persian_right_to_left(client, crowdworker, fa_project, fa_paragraph):
    client.force_login(crowdworker)
    response = client.get(reverse("annotation:task_list"))
    html = response.content.decode()
    assert '<html lang="fa" dir="rtl">' in html
    assert f"کارهای برچسب{ZWNJ}گذاری" in html and "Annotation tasks" not in html
    assert "۱ پاراگراف" in html and "۲ تا ۴ پرسش" in html and "حدود ۱۵ دقیقه" in html  # Persian digits
    assert ">English</button>" in html and "فارسی</button>" in html  # each language named in itself
    assert response["Content-Language"] == "fa"


def test_the_annotation_page_is_persian_with_the_javascript_catalogue(client, crowdworker, fa_project, fa_paragraph):
    client.force_login(crowdworker)
    response = client.post(reverse("annotation:task_start", args=[fa_project.pk, "authoring"]), follow=True)
    html = response.content.decode()
    url = reverse("annotation:javascript_catalog", args=["fa"])
    assert "افزودن پرسش" in html and url in html
    catalogue = client.get(url).content.decode()
    escaped = "افزودن پرسش".encode("unicode_escape").decode()  # the catalogue is JSON with non-ASCII escaped
    assert f'"Add question": "{escaped}"' in catalogue
    assert client.get(reverse("annotation:javascript_catalog", args=["xx"])).status_code == 404


def test_an_english_project_stays_english(client, crowdworker, project, paragraph):
    client.force_login(crowdworker)
    html = client.get(reverse("annotation:task_list")).content.decode()
    assert '<html lang="en" dir="ltr">' in html and "Annotation tasks" in html and "1 paragraph" in html


def test_the_workers_choice_wins_and_is_remembered(client, crowdworker, fa_project, fa_paragraph):
    client.force_login(crowdworker)
    response = client.post(reverse("set_language"), {"language": "en", "next": reverse("annotation:task_list")})
    assert response.status_code == 302 and response.url == reverse("annotation:task_list")
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "en" and int(cookie["max-age"]) == settings.LANGUAGE_COOKIE_AGE
    html = client.get(reverse("annotation:task_list")).content.decode()
    assert '<html lang="en" dir="ltr">' in html and "Annotation tasks" in html
    client.post(reverse("set_language"), {"language": "fa", "next": reverse("annotation:task_list")})
    assert '<html lang="fa" dir="rtl">' in client.get(reverse("annotation:task_list")).content.decode()


def test_messages_are_translated(client, crowdworker, fa_project):
    client.force_login(crowdworker)
    response = client.post(reverse("annotation:task_start", args=[fa_project.pk, "authoring"]), follow=True)
    assert f"فعلاً کاری در «{fa_project.name}» نمانده است" in response.content.decode()


def test_the_worker_facing_labels_cover_the_models_choices():
    assert [value for value, _ in DISCARD_REASONS] == AnnotationSession.DiscardReason.values
    assert set(SESSION_STATUS) == set(AnnotationSession.Status.values)
    assert set(SPLITS) == set(Split.values)
