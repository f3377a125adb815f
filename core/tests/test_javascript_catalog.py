"""The pages' JavaScript translations (``core.views.javascript_catalog``): the djangojs catalogue in the
language the page names; the authoring page loads it before its modules (static/js/lib/i18n.js)."""
import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _escaped(text: str) -> str:
    return text.encode("unicode_escape").decode()  # the catalogue is JSON with non-ASCII escaped


def test_the_catalogue_is_in_the_language_asked_for(client):
    persian = client.get(reverse("javascript_catalog", args=["fa"]))
    assert persian.status_code == 200 and "javascript" in persian["Content-Type"]
    assert f'"The model is fooled": "{_escaped("مدل فریب خورد")}"' in persian.content.decode()
    english = client.get(reverse("javascript_catalog", args=["en"])).content.decode()
    assert "The model is fooled" not in english  # no translations: the English text stays as it is


def test_an_unknown_language_is_not_found_and_only_reading_is_allowed(client):
    assert client.get(reverse("javascript_catalog", args=["xx"])).status_code == 404
    assert client.post(reverse("javascript_catalog", args=["fa"])).status_code == 405

