"""The collector's student and instructor pages speak Persian to a Persian user (issue 30).

Each page is rendered with the ``django_language`` cookie set to ``fa`` (what the *Language*
button sets). It must (a) show characteristic Persian text of that page, and (b) keep none of its
English interface: the page's ``<main>`` is reduced to its visible text and its translatable
attributes (``title``, ``aria-label``, ``placeholder``), the user's own content (prompts,
completions, names) is taken out, and what is left may hold no English word beyond names that read
the same in every language (CODAH, JSON, key names...). The same pages in English keep their
English (the other page tests check them in detail).
"""
import html
import re

import pytest
from django.urls import reverse

from collector.models import Question
from collector.tests.factories import question_data, validate
from modelhub.models import ModelVersion

pytestmark = pytest.mark.django_db

# Words that are not English interface text: names of formats, data sets, keys and number types.
SAME_IN_EVERY_LANGUAGE = {
    "CODAH", "JSON", "TSV", "CSV", "Canvas", "Moodle", "SIS", "User", "Login", "LMS", "Email", "address", "Hub",
    "Hugging", "Face", "AVX512", "BF16", "AMX", "bfloat16", "float32", "auto", "off", "CPU", "AUC", "Alt", "Ctrl",
    "Enter", "manage", "import_codah", "codah", "squad_v2", "pquad", "min", "prompt", "choices", "answer",
    "categories", "Lines", "Stumper", "CI", "API", "Tab", "OpenAI", "chat", "completions",
}
ATTRIBUTES = re.compile(r'\b(?:title|aria-label|placeholder)="([^"]*)"')


def fa_page(client, url: str) -> str:
    client.cookies["django_language"] = "fa"
    response = client.get(url)
    assert response.status_code == 200, url
    page = response.content.decode()
    assert '<html lang="fa" dir="rtl">' in page
    return page


def english_left(page: str, user_content: list[str]) -> set[str]:
    """English words left in the page's ``<main>`` once tags, scripts and the user's content are out."""
    main = page[page.index("<main"):page.index("</main>")]
    main = re.sub(r"<(script|style|template)\b.*?</\1>", " ", main, flags=re.S)
    text = " ".join(ATTRIBUTES.findall(main)) + " " + re.sub(r"<[^>]+>", " ", main)
    text = html.unescape(text)
    for content in sorted(user_content, key=len, reverse=True):
        text = text.replace(content, " ")
    return set(re.findall(r"[A-Za-z][A-Za-z_0-9']{2,}", text)) - SAME_IN_EVERY_LANGUAGE


def user_content(*questions: Question, extra: tuple[str, ...] = ()) -> list[str]:
    """What users wrote: prompts, completions, names of users, courses, rounds and models."""
    words = ["NLP 101", "Round one", "r1", "Try idioms and negation.", "alice", "bob", "carol", "dave", "prof",
             *ModelVersion.objects.values_list("name", flat=True), *extra]
    for question in questions:
        words += [question.prompt, *question.choices, question.round.course.join_code]
    return words


@pytest.fixture
def question(round_, student, fake_model):
    from collector.services.questions import question_submit

    return question_submit(user=student, round_id=round_.pk, **question_data(categories=["negation"]))


class StudentPagesInPersianTests:
    def test_dashboard(self, client, student, question):
        client.force_login(student)
        page = fa_page(client, reverse("collector:dashboard"))
        for words in ("داشبورد شما", "دورهای باز", "پرسش‌های شما", "امتیاز کل", "فریب در اعتبارسنجی متقابل:",
                      "هنوز ارزیابی نشده", "در انتظار اعتبارسنجی"):
            assert words in page, words
        assert english_left(page, user_content(question)) == set()

    def test_round_write(self, client, student, round_):
        client.force_login(student)
        page = fa_page(client, reverse("collector:round_write", args=[round_.pk]))
        for words in ("پرسش‌های شما در این دور:", "فرستادن پرسش", "هر چهار گزینه را پر کنید تا حدس مدل را ببینید",
                      "گزینهٔ A", "نفی"):
            assert words in page, words
        assert english_left(page, user_content()) == set()
        # What its script writes (the verdict, the announcement) comes from the Persian JavaScript catalogue.
        assert f'<script src="{reverse("javascript_catalog", args=["fa"])}"></script>' in page

    def test_validate(self, client, submitted, classmates):
        client.force_login(classmates[0])
        page = fa_page(client, reverse("collector:validate"))
        for words in ("اعتبارسنجی پرسش‌ها", "کدام گزینه درست است؟", "ذخیره و بعدی", "رد شدن از این پرسش",
                      "بیش از یک پاسخ درست یا هیچ"):
            assert words in page, words
        assert english_left(page, user_content(submitted)) == set()


class InstructorPagesInPersianTests:
    def test_course_detail(self, client, instructor, course, round_, student):
        client.force_login(instructor)
        page = fa_page(client, reverse("collector:course_detail", args=[course.pk]))
        for words in ("ساختن دور", "دورها", "دانشجویان", "بدون ایمیل", "امتیاز فریب دادن مدل زنده"):
            assert words in page, words
        left = english_left(page, user_content(extra=(course.join_code, "NLP")))
        assert not left & {"Rounds", "Round", "Opens", "Closes", "Students", "Create", "round", "Categories",
                           "Username", "Joined", "Send", "reset", "link", "Times", "Credit", "fooling", "Name"}, left

    def test_round_detail(self, client, instructor, round_, question):
        client.force_login(instructor)
        page = fa_page(client, reverse("collector:round_detail", args=[round_.pk]))
        for words in ("آمار دور", "امتیازدهی با اعتبارسنجی متقابل", "نمره‌ها", "پرسش‌ها در هر دسته",
                      "هیچ پرسشی از این دور پذیرفته نمی‌شود", "فریب در اعتبارسنجی متقابل"):
            assert words in page, words
        left = english_left(page, user_content(question))
        assert not left & {"Questions", "Authors", "Fooling", "rate", "Scoring", "Folds", "Trials", "Grades",
                           "Download", "grades", "Filter", "Reset", "Author", "Prompt", "Credit", "Status", "Time",
                           "Settings", "Import", "questions", "Review", "queue", "accepted", "validator",
                           "validators", "Pending", "Awaiting", "validation"}, left

    def test_round_settings(self, client, instructor, round_):
        client.force_login(instructor)
        page = fa_page(client, reverse("collector:round_settings", args=[round_.pk]))
        for words in ("تنظیمات دور", "امتیاز و مدل زنده", "ذخیرهٔ تنظیمات", "اعتبارسنج‌های موافقِ لازم برای پذیرش",
                      "هنوز معلوم نیست"):
            assert words in page, words
        assert english_left(page, user_content()) == set()

    def test_round_import(self, client, instructor, round_):
        client.force_login(instructor)
        page = fa_page(client, reverse("collector:round_import", args=[round_.pk]))
        for words in ("وارد کردن پرسش‌ها", "پیش‌نمایش", "مجموعه‌دادهٔ منبع", "لغو"):
            assert words in page, words
        assert english_left(page, user_content(extra=("allenai/codah", "cc-by-4.0"))) == set()

    def test_review_queue_and_question_review(self, client, instructor, submitted, classmates):
        validate(submitted, classmates[0], 2, flags=["grammar"], comment="Typo in B.")
        client.force_login(instructor)
        content = user_content(submitted, extra=("Typo in B.", Question.objects.get(pk=submitted.pk).review_reason))
        queue = fa_page(client, reverse("collector:review_queue", args=[submitted.round_id]))
        for words in ("صف بازبینی", "پذیرفتن", "رد کردن", "ویرایش…", "کلید پاسخ", "خطای دستوری یا املایی"):
            assert words in queue, words
        assert english_left(queue, content) == set()
        review = fa_page(client, reverse("collector:question_review", args=[submitted.pk]))
        for words in ("بازگشت به صف بازبینی", "ویرایش و پذیرش", "ذخیرهٔ ویرایش و پذیرش", "تاریخچه"):
            assert words in review, words
        assert english_left(review, content) == set()


def test_the_same_pages_stay_english_in_english(client, student, round_):
    client.force_login(student)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("collector:round_write", args=[round_.pk])).content.decode()
    assert '<html lang="en" dir="ltr">' in page and "Submit question" in page and "Completion A" in page
