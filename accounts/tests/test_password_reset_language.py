"""The reset email and the pages its link opens speak the user's language (accounts.languages):
the asker's own choice on this browser, else what the apps above say (here a stand-in receiver of
``user_language_asked``), else the request's language."""
import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import translation

from accounts.languages import user_language, user_language_asked
from accounts.recovery_services import password_reset_send
from accounts.services import user_create

PASSWORD = "a-long-test-password-42"
NEW_PASSWORD = "another-long-password-77"
ZWNJ = "\u200c"


@pytest.fixture
def persian_by_name():
    """The apps above say that users whose name starts with "sara" speak Persian."""
    def receiver(sender, user, **kwargs):
        return "fa" if user.username.startswith("sara") else None

    user_language_asked.connect(receiver, dispatch_uid="test-persian-by-name")
    yield
    user_language_asked.disconnect(dispatch_uid="test-persian-by-name")


def link(message) -> str:
    return re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/)", message.body).group(1)


@pytest.mark.django_db
class ResetLanguageTests:
    def test_the_email_is_in_the_users_language(self, client, persian_by_name):
        user_create(username="sara", password=PASSWORD, email="sara@example.org")
        user_create(username="bob", password=PASSWORD, email="bob@example.edu")
        for address in ("sara@example.org", "bob@example.edu"):
            client.post(reverse("accounts:password_reset"), {"email": address})
        persian, english = mail.outbox
        assert persian.subject == "بازنشانی گذرواژهٔ Stumper شما"
        assert persian.body.startswith("سلام sara،\n\nکسی (امیدواریم خود شما) درخواست کرده است")
        assert f"این پیوند فقط یک بار و تا ۳ روز کار می{ZWNJ}کند. نام کاربری شما sara است." in persian.body
        assert "Reset" not in persian.body and "/accounts/password/reset/" in persian.body
        assert english.subject == "Reset your Stumper password" and english.body.startswith("Hello bob,")
        assert "The link works once and for 3 days. Your username is bob." in english.body

    def test_the_askers_own_choice_of_language_wins(self, client, persian_by_name):
        user_create(username="sara", password=PASSWORD, email="sara@example.org")
        client.cookies["django_language"] = "en"
        client.post(reverse("accounts:password_reset"), {"email": "sara@example.org"})
        assert mail.outbox[0].subject == "Reset your Stumper password"

    def test_a_reset_sent_by_an_instructor_is_in_the_users_language(self, persian_by_name):
        prof = user_create(username="prof", password=PASSWORD, role="instructor")
        sara = user_create(username="sara", password=PASSWORD, email="sara@example.org")
        password_reset_send(user=sara, domain="stumper.example", use_https=True, sent_by=prof)
        assert mail.outbox[0].subject == "بازنشانی گذرواژهٔ Stumper شما"
        assert "prof، مدرس شما، درخواست کرده است" in mail.outbox[0].body

    def test_the_link_opens_the_reset_pages_in_that_language(self, client, persian_by_name):
        user_create(username="sara", password=PASSWORD, email="sara@example.org")
        client.post(reverse("accounts:password_reset"), {"email": "sara@example.org"})
        form = client.get(link(mail.outbox[0]), follow=True)
        page = form.content.decode()
        assert '<html lang="fa" dir="rtl">' in page and "تعیین گذرواژهٔ تازه" in page
        weak = client.post(form.redirect_chain[-1][0], {"new_password1": "123", "new_password2": "123"})
        # Django's own password checks answer in Persian too (its catalogue; its new "too short" wording has none yet).
        assert "ذخیرهٔ گذرواژهٔ تازه" in weak.content.decode() and "این رمز عبور بسیار رایج است." in weak.content.decode()
        done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
                           follow=True)
        assert "گذرواژهٔ شما تغییر کرد" in done.content.decode() and done["Content-Language"] == "fa"

    def test_a_broken_link_says_nothing_about_whose_it_was(self, client, persian_by_name):
        user_create(username="sara", password=PASSWORD, email="sara@example.org")
        client.post(reverse("accounts:password_reset"), {"email": "sara@example.org"})
        broken = re.sub(r"/[^/]+/$", "/not-a-token/", link(mail.outbox[0]))
        page = client.get(broken, follow=True).content.decode()
        assert "This link no longer works" in page and '<html lang="en"' in page  # not Persian: no hint

    def test_without_a_receivers_answer_the_requests_language(self, persian_by_name):
        bob = user_create(username="bob", password=PASSWORD)
        with translation.override("fa"):
            assert user_language(bob) == "fa"
        assert user_language(bob) == "en" and user_language(bob, chosen="fa") == "fa"
        assert user_language(bob, chosen="xx") == "en"
