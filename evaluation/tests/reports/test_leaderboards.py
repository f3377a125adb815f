"""``reports/leaderboards.py``: an evaluation's progress line, worded in the active language."""
import pytest
from django.utils import translation

from evaluation.models.leaderboards import ModelEvaluation
from evaluation.reports.leaderboards import evaluation_payload
from evaluation.services import leaderboards as leaderboard_services

pytestmark = pytest.mark.django_db


def test_the_progress_line_is_worded_in_english_and_persian(board_round, tiny_model_version, monkeypatch):
    monkeypatch.setattr(leaderboard_services, "model_evaluation_schedule", lambda **kw: None)
    evaluation = leaderboard_services.model_evaluation_start(model_version=tiny_model_version, round_=board_round)
    ModelEvaluation.objects.filter(pk=evaluation.pk).update(
        status=ModelEvaluation.Status.RUNNING, progress={"stage": "Answering the questions", "percent": 42.4})
    evaluation.refresh_from_db()
    name = tiny_model_version.name
    with translation.override("en"):
        assert evaluation_payload(evaluation)["display"]["progress"] == f"{name}: Answering the questions (42%)."
    with translation.override("fa"):
        assert evaluation_payload(evaluation)["display"]["progress"] == f"{name}: در حال پاسخ دادن به پرسش‌ها (۴۲٪)."
    ModelEvaluation.objects.filter(pk=evaluation.pk).update(status=ModelEvaluation.Status.FAILED)
    evaluation.refresh_from_db()
    with translation.override("fa"):
        assert evaluation_payload(evaluation)["display"]["progress"] == f"ارزیابی {name} ناموفق بود؛ چیزی ذخیره نشد."
