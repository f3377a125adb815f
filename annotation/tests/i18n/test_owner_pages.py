"""The project owner's pages speak Persian to a Persian user (issue 30): the project list, the
dashboard, the import, invites, paragraphs and settings pages, with their forms' labels; in
English they keep their English words."""
import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def page_in(client, user, url: str, language: str = "fa") -> str:
    client.cookies["django_language"] = language
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'<html lang="{language}"' in page
    return page


def check(page: str, persian: tuple[str, ...], english: tuple[str, ...]) -> None:
    assert [text for text in persian if text not in page] == []
    assert [text for text in english if text in page] == []


def test_the_project_list_in_persian(client, owner, project):
    check(page_in(client, owner, reverse("annotation:project_list")),
          ("<h1>پروژه‌های برچسب‌گذاری</h1>", "ساختن پروژه", "مدل درون حلقه", "راهنمای کارگران",
           "تنظیمات بیشتر (پیش‌فرض‌ها از PQuAD پیروی می‌کنند)", "بخش‌های آموزش، اعتبارسنجی و آزمون"),
          ("<h1>Annotation projects</h1>", "Create a project", "Model in the loop", "Instructions for workers",
           "More settings", "Train, validation and test splits"))


def test_the_dashboard_in_persian(client, owner, project, reviewed):
    check(page_in(client, owner, reverse("annotation:project_dashboard", args=[project.pk])),
          ("پروژهٔ برچسب‌گذاری", "پیشرفت در هر بخش", "عملکرد انسانی", "نمودارها", "گزارش‌های باز",
           "پاسخ‌های دور دوم", "اعتبارسنجی", "پاراگراف‌های انجام‌شده در هر بخش"),
          ("Progress per split", "Human performance", "Charts", "Open flags", "Second-pass answers",
           "Paragraphs done per split", "Model in the loop:"))


def test_the_import_page_in_persian(client, owner, project):
    check(page_in(client, owner, reverse("annotation:project_import", args=[project.pk])),
          ("مقاله‌های ویکی‌پدیا ← کارها", "وارد کردن مقاله‌ها", "فایل SQuAD 2.0 / PQuAD", "وارد کردن فایل SQuAD",
           "ضریب میرایی PageRank (۰٫۴)"),
          ("Wikipedia articles → tasks", "Import articles", "Import SQuAD file", "PageRank damping (0.4)",
           "Articles are ranked"))


def test_the_invites_page_in_persian(client, owner, project):
    check(page_in(client, owner, reverse("annotation:project_invites", args=[project.pk])),
          ("دعوت از کارگران جمعی", "ساختن پیوند دعوت", "هنوز پیوند دعوتی نیست.", "چه کسانی این پروژه را می‌بینند",
           "مدت اعتبار پیوند", "۷ روز"),
          ("Invite crowdworkers", "Create an invite link", "No invite links yet.", "Who sees this project",
           "The link works for", "7 days"))


def test_the_paragraphs_page_in_persian(client, owner, project, reviewed):
    check(page_in(client, owner, reverse("annotation:project_paragraphs", args=[project.pk])),
          ("پالایش", "مقاله", "هر وضعیتی", "هر بخشی", "انجام شد"),
          ("Filter", ">Article<", "Any status", "Any split", "Needs questions"))


def test_the_settings_page_in_persian(client, owner, project):
    check(page_in(client, owner, reverse("annotation:project_settings", args=[project.pk])),
          ("ذخیرهٔ تنظیمات", "کمترین تعداد پرسش برای هر پاراگراف", "کارگر برای هر پاراگراف", "بدون مدل درون حلقه",
           'aria-current="page">تنظیمات</a>', ">دعوت‌ها</a>"),
          ("Save settings", "Fewest questions per paragraph", "Workers per paragraph", "No model in the loop",
           ">Settings</a>", ">Invites</a>"))


def test_in_english_the_owner_pages_keep_their_words(client, owner, project):
    page = page_in(client, owner, reverse("annotation:project_dashboard", args=[project.pk]), language="en")
    assert "Progress per split" in page and "Human performance" in page
    page = page_in(client, owner, reverse("annotation:project_settings", args=[project.pk]), language="en")
    assert "Save settings" in page and "Fewest questions per paragraph" in page
