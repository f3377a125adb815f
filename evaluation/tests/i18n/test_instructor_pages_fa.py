"""The evaluation pages speak Persian to a Persian user (issue 30): the leaderboard (headings, the
evaluate form, the sortable table's column names) and the report page (its texts, start form and
history); English stays English."""
import pytest
from django.urls import reverse

from evaluation.tests.factories import model_evaluation_finished

pytestmark = pytest.mark.django_db


def page_in(client, user, url: str, language: str = "fa") -> str:
    client.cookies["django_language"] = language
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_round_leaderboard_in_persian(client, instructor, live_round, tiny_model_version):
    model_evaluation_finished(tiny_model_version, live_round)
    page = page_in(client, instructor, reverse("evaluation:round_leaderboard", args=[live_round.pk]))
    assert '<html lang="fa" dir="rtl">' in page
    for persian in ("<h1>جدول رده‌بندی</h1>", "ارزیابی یک مدل", "نسخهٔ مدل", "مدل‌ها", "مدل زندهٔ این دور",
                    ">مدل</a>", ">دقت</a>", "نرخ خطای اعتبارسنجی‌شدهٔ مدل در هر دور", "بدون پاسخ زنده"):
        assert persian in page
    for english in ("<h1>Leaderboard</h1>", "Evaluate a model", "Model version", "Live model of this round",
                    ">model</a>", ">accuracy</a>", "Validated model error rate", "Without a live answer"):
        assert english not in page


def test_the_round_report_page_in_persian(client, instructor, round_):
    page = page_in(client, instructor, reverse("evaluation:round_report", args=[round_.pk]))
    for persian in ("<h1>گزارش ارزیابی</h1>", "هنوز گزارش تمام‌شده‌ای نیست.", "محاسبهٔ گزارش تازه",
                    "همهٔ گزارش‌ها", "هنوز گزارشی نیست.", "سنجه‌های سوگیری روی پرسش‌های دور", "ویژگی‌های برتر هر برچسب"):
        assert persian in page
    for english in ("Evaluation report", "No finished report yet.", "Compute a new report", "All reports",
                    "No reports yet.", "Bias benchmarks", "Top features per label", "Null for z-scores"):
        assert english not in page


def test_in_english_the_pages_keep_their_words(client, instructor, round_):
    page = page_in(client, instructor, reverse("evaluation:round_report", args=[round_.pk]), language="en")
    assert "<h1>Evaluation report</h1>" in page and "Compute a new report" in page and "Top features per label" in page
    page = page_in(client, instructor, reverse("evaluation:round_leaderboard", args=[round_.pk]), language="en")
    assert "<h1>Leaderboard</h1>" in page and "Evaluate a model" in page
