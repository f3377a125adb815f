from django.urls import path

from collector.views import (
    coach,
    forecast,
    grades,
    home,
    imports,
    quality,
    questions,
    reviews,
    round_settings,
    rounds,
    scoring,
    training,
    validation,
)

app_name = "collector"
urlpatterns = [
    path("dashboard/", home.dashboard, name="dashboard"),
    # The course list and the student's password reset under /courses/ are the courses app's (courses/urls.py).
    path("courses/<int:course_id>/", rounds.course_detail, name="course_detail"),
    path("rounds/<int:round_id>/", rounds.round_detail, name="round_detail"),
    path("rounds/<int:round_id>/write/", questions.round_write, name="round_write"),
    path("rounds/<int:round_id>/settings/", round_settings.round_settings_edit, name="round_settings"),
    path("rounds/<int:round_id>/import/", imports.round_import, name="round_import"),
    path("rounds/<int:round_id>/scoring/", scoring.round_scoring_start, name="round_scoring_start"),
    path("scoring/runs/<int:run_id>/cancel/", scoring.scoring_run_cancel, name="scoring_run_cancel"),
    path("scoring/runs/<int:run_id>/resume/", scoring.scoring_run_resume, name="scoring_run_resume"),
    path("rounds/<int:round_id>/train/", training.round_model_train, name="round_model_train"),
    path("rounds/<int:round_id>/forecast/", forecast.round_forecast_train, name="round_forecast_train"),
    path("rounds/<int:round_id>/grades.csv", grades.round_grades_download, name="round_grades_download"),
    # Question quality: blind validation, the owner's review, appeals, the report and the coach's model.
    path("validate/", validation.validate, name="validate"),
    path("rounds/<int:round_id>/review/", reviews.review_queue, name="review_queue"),
    path("rounds/<int:round_id>/quality/", quality.round_quality, name="round_quality"),
    path("rounds/<int:round_id>/answer-only-model/", coach.round_answer_only_model, name="round_answer_only_model"),
    path("questions/<int:question_id>/review/", reviews.question_review, name="question_review"),
    path("questions/<int:question_id>/appeal/", reviews.appeal_submit, name="appeal_submit"),
    path("appeals/<int:appeal_id>/decide/", reviews.appeal_decide, name="appeal_decide"),
]
