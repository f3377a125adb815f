"""The sign-in page, where signing out and the "password changed" page lead, and its messages
(wrong password, tries left, locked) speak the language the person chose with a *Language*
button (the ``set_language`` cookie the crowdworker pages set), else the browser's; numbers in
that language's digits."""
import re

import pytest
from django.urls import reverse

from accounts.services import user_create

PASSWORD = "a-long-test-password-42"
ZWNJ = "\u200c"
pytestmark = pytest.mark.usefixtures("fresh_login_counts")


@pytest.fixture
def sara(db):
    return user_create(username="sara", password=PASSWORD, role="crowdworker")


def errors(response) -> list[str]:
    """The texts of the form's error list."""
    return re.findall(r"<li>(.*?)</li>", re.search(r'<div class="form-errors".*?</div>', response.content.decode(),
                                                   re.S).group(0), re.S)


@pytest.mark.django_db
class SignInLanguageTests:
    def test_the_sign_in_page_in_the_chosen_language(self, client):
        client.cookies["django_language"] = "fa"
        page = client.get(reverse("accounts:login")).content.decode()
        assert '<html lang="fa" dir="rtl">' in page and "<h1>ورود</h1>" in page
        assert '<label for="id_username">نام کاربری:</label>' in page and '<label for="id_password">گذرواژه:</label>' in page
        assert f"گذرواژه{ZWNJ}تان را فراموش کرده{ZWNJ}اید؟" in page
        # The sign-up link is the courses app's panel (courses/tests/test_views.py checks where it leads).
        assert re.search(f'دانشجوی تازه هستید؟ <a href="[^"]+">با کد عضویت درستان ثبت{ZWNJ}نام کنید</a>.', page)
        main = page[page.index("<main"):page.index("</main>")]
        assert not re.search(r">[^<]*[A-Za-z]{3,}[^<]*<", main), main  # no English text left in the page

    def test_without_a_choice_the_browsers_language_and_a_choice_beats_it(self, client):
        page = client.get(reverse("accounts:login"), HTTP_ACCEPT_LANGUAGE="fa").content.decode()
        assert '<html lang="fa" dir="rtl">' in page and "<h1>ورود</h1>" in page
        client.cookies["django_language"] = "en"
        page = client.get(reverse("accounts:login"), HTTP_ACCEPT_LANGUAGE="fa").content.decode()
        assert '<html lang="en" dir="ltr">' in page and "<h1>Sign in</h1>" in page
        assert "New student? <a href=" in page and "Forgot your password?" in page

    def test_tries_left_and_the_lock_out_in_persian_with_persian_digits(self, client, sara):
        client.cookies["django_language"] = "fa"
        pages = [client.post(reverse("accounts:login"), {"username": "sara", "password": "wrong"}) for _ in range(3)]
        wrong = "لطفا نام کاربری و گذرواژه" + ZWNJ + "ای قابل قبول وارد کنید."  # Django's own catalogue
        assert all(errors(page)[0].startswith(wrong) for page in pages)
        assert errors(pages[0])[1] == (f"۲ بار دیگر می{ZWNJ}توانید امتحان کنید؛ پس از آن ورود برای ۵ دقیقه "
                                       f"قفل می{ZWNJ}شود.")
        assert errors(pages[1])[1].startswith("۱ بار دیگر")
        assert errors(pages[2])[1] == (f"این آخرین تلاش بود: ورود اکنون برای ۵ دقیقه قفل شد. در این فاصله "
                                       f"می{ZWNJ}توانید گذرواژه{ZWNJ}تان را بازنشانی کنید.")
        locked = client.post(reverse("accounts:login"), {"username": "sara", "password": PASSWORD})
        assert locked.status_code == 429 and errors(locked) == [
            f"چند بار پشت سر هم ورود ناموفق بود. ورود تا ۵ دقیقه دیگر قفل است؛ پس از آن دوباره امتحان کنید، "
            f"یا گذرواژه{ZWNJ}تان را بازنشانی کنید."]
        assert reverse("accounts:password_reset") in locked.content.decode()

    def test_signing_out_and_the_password_changed_page_lead_to_the_sign_in_page_in_that_language(self, client, sara):
        client.cookies["django_language"] = "fa"
        client.force_login(sara)
        signed_out = client.post(reverse("accounts:logout"), follow=True)
        assert signed_out.redirect_chain[-1][0] == reverse("accounts:login")
        assert "<h1>ورود</h1>" in signed_out.content.decode() and signed_out["Content-Language"] == "fa"
        changed = client.get(reverse("accounts:password_reset_complete")).content.decode()
        target = re.search(r'<a class="button button-primary" href="([^"]+)">ورود</a>', changed).group(1)
        assert "<h1>ورود</h1>" in client.get(target).content.decode()
