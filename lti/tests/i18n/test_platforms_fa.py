"""The LMS pages speak Persian to a Persian user (issue 30): the settings page with its registration
form, and the page of a refused launch with its reason."""
import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_lms_settings_page_in_persian(client, instructor):
    client.cookies["django_language"] = "fa"
    client.force_login(instructor)
    page = client.get(reverse("lti:platforms")).content.decode()
    assert '<html lang="fa" dir="rtl">' in page
    for persian in ("استفاده از Stumper در LMS شما", "ثبت‌های LMS شما", "ثبت یک LMS", "صادرکننده", "شناسهٔ کلاینت",
                    "نشانی توکن سکو", "هنوز هیچ."):
        assert persian in page
    for english in ("Use Stumper from your LMS", "Your LMS registrations", "Register an LMS", "Issuer",
                    "Client id", "Platform token URL", "None yet."):
        assert english not in page


def test_in_english_the_lms_settings_page_keeps_its_words(client, instructor):
    client.force_login(instructor)
    page = client.get(reverse("lti:platforms")).content.decode()
    assert "Use Stumper from your LMS" in page and "Platform token URL" in page and "Issuer" in page


def test_a_refused_launch_says_why_in_persian(client, lms, platform):
    from lti.tests.conftest import login_and_launch
    from lti.tests.platform_sim import ROLE_LEARNER

    client.cookies["django_language"] = "fa"
    response, _ = login_and_launch(client, lms, lms.resource_link_claims(sub="early", roles=[ROLE_LEARNER]))
    page = response.content.decode()
    assert response.status_code == 403 and "<h1>این ورود از LMS پذیرفته نشد</h1>" in page
    assert "مدرس شما هنوز Stumper را برای این درس راه‌اندازی نکرده است." in page
    assert "not set up Stumper" not in page and "Nothing was changed" not in page
