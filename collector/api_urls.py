from django.urls import path

from collector.apis import (
    coach,
    duplicates,
    grades,
    imports,
    panel,
    quality,
    questions,
    reviews,
    round_settings,
    rounds,
    scoring,
    training,
    validation,
)

app_name = "api"
urlpatterns = [
    path("questions/", questions.QuestionListApi.as_view(), name="question_list"),
    path("questions/submit/", questions.QuestionSubmitApi.as_view(), name="question_submit"),
    path("rounds/<int:round_id>/stats/", rounds.RoundStatsApi.as_view(), name="round_stats"),
    # A course with its rounds (collector/apis/rounds.py); the course list, creating one and its students are
    # the courses app's (courses/api_urls.py, names courses_api:*, the same /api/courses/ prefix).
    path("courses/<int:course_id>/", rounds.CourseDetailApi.as_view(), name="course_detail"),
    path("courses/<int:course_id>/rounds/create/", rounds.RoundCreateApi.as_view(), name="round_create"),
    path("rounds/open/", rounds.RoundOpenListApi.as_view(), name="round_open_list"),
    path("rounds/<int:round_id>/", rounds.RoundDetailApi.as_view(), name="round_detail"),
    path("rounds/<int:round_id>/questions/", rounds.RoundQuestionListApi.as_view(), name="round_questions"),
    path("rounds/<int:round_id>/settings/", round_settings.RoundSettingsApi.as_view(), name="round_settings"),
    path("rounds/<int:round_id>/panel/", panel.RoundPanelApi.as_view(), name="round_panel"),
    path("rounds/<int:round_id>/panel/update/", panel.RoundPanelUpdateApi.as_view(), name="round_panel_update"),
    path("rounds/<int:round_id>/settings/update/", round_settings.RoundSettingsUpdateApi.as_view(),
         name="round_settings_update"),
    path("rounds/<int:round_id>/duplicates/", duplicates.RoundDuplicatesApi.as_view(), name="round_duplicates"),
    # Files: grades and CODAH import (collector/apis/grades.py, imports.py); the CODAH export at
    # rounds/<id>/export/ is evaluation's (evaluation_api:round_export, evaluation/export_urls.py).
    path("rounds/<int:round_id>/grades/", grades.RoundGradesApi.as_view(), name="round_grades"),
    path("rounds/<int:round_id>/import/", imports.RoundImportApi.as_view(), name="round_import"),
    # Long jobs: scoring, training (collector/apis/scoring.py, training.py), the coach's answer-only model (coach.py)
    path("rounds/<int:round_id>/scoring/start/", scoring.ScoringStartApi.as_view(), name="scoring_start"),
    path("rounds/<int:round_id>/scoring/runs/", scoring.ScoringRunListApi.as_view(), name="scoring_run_list"),
    path("scoring/runs/<int:run_id>/", scoring.ScoringRunDetailApi.as_view(), name="scoring_run_detail"),
    path("scoring/runs/<int:run_id>/cancel/", scoring.ScoringRunCancelApi.as_view(), name="scoring_run_cancel"),
    path("scoring/runs/<int:run_id>/resume/", scoring.ScoringRunResumeApi.as_view(), name="scoring_run_resume"),
    path("rounds/<int:round_id>/training/start/", training.TrainingStartApi.as_view(), name="training_start"),
    path("rounds/<int:round_id>/training/jobs/", training.TrainingJobListApi.as_view(), name="training_job_list"),
    path("training/jobs/<int:job_id>/", training.TrainingJobDetailApi.as_view(), name="training_job_detail"),
    path("rounds/<int:round_id>/answer-only-model/train/", coach.AnswerOnlyModelTrainApi.as_view(),
         name="answer_only_model_train"),
    # Question quality (collector/apis/validation.py, reviews.py, quality.py; its settings in round_settings.py)
    path("validation/next/", validation.ValidationNextApi.as_view(), name="validation_next"),
    path("validation/submit/", validation.ValidationSubmitApi.as_view(), name="validation_submit"),
    path("review/", reviews.ReviewQueueApi.as_view(), name="review_queue"),
    path("questions/<int:question_id>/review/", reviews.QuestionReviewApi.as_view(), name="question_review"),
    path("questions/<int:question_id>/appeal/", reviews.AppealSubmitApi.as_view(), name="appeal_submit"),
    path("appeals/<int:appeal_id>/decide/", reviews.AppealDecideApi.as_view(), name="appeal_decide"),
    path("rounds/<int:round_id>/quality/", quality.RoundQualityApi.as_view(), name="round_quality"),
    path("rounds/<int:round_id>/quality/settings/", round_settings.RoundQualitySettingsUpdateApi.as_view(),
         name="round_quality_settings"),
]
