"""The instructor's inbox in Persian (issue 30): headings, counts with their plural and the item
texts built by the selectors; English stays English."""
from django.urls import reverse


def inbox_page(client, user, language: str) -> str:
    client.cookies["django_language"] = language
    client.force_login(user)
    return client.get(reverse("inbox:inbox")).content.decode()


def test_a_busy_inbox_in_persian(client, busy_world, instructor):
    page = inbox_page(client, instructor, "fa")
    assert '<html lang="fa" dir="rtl">' in page and "<h1>صندوق ورودی</h1>" in page
    for persian in ("بازبینی‌های در انتظار", "اعتراض‌های در انتظار", "گزارش‌های در انتظار رسیدگی",
                    "دورهایی که به‌زودی بسته می‌شوند", "مورد در انتظار تصمیم شماست.", "پرسش برای بازبینی",
                    "اعتراض ", "گزارش برای رسیدگی", "بسته می‌شود", "پروژهٔ برچسب‌گذاری nile-mine"):
        assert persian in page
    for english in ("Reviews waiting", "Appeals waiting", "Flags to resolve", "Rounds closing soon",
                    "things wait for your decision", "questions to review", "flags to resolve", "Appeal by",
                    "Annotation project nile", " closes "):
        assert english not in page


def test_an_empty_inbox_in_persian(client, instructor):
    page = inbox_page(client, instructor, "fa")
    assert "کاری نمانده است." in page and "All caught up." not in page


def test_in_english_the_inbox_keeps_its_words(client, busy_world, instructor):
    page = inbox_page(client, instructor, "en")
    assert "Reviews waiting" in page and "5 things wait for your decision." in page and "2 flags to resolve" in page
