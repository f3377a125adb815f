from django.urls import path

from collector import apis, course_apis, data_apis, job_apis, round_apis, scoring_control_apis, validation_apis
from courses import apis as courses_apis

app_name = "api"
urlpatterns = [
    path("questions/", apis.QuestionListApi.as_view(), name="question_list"),
    path("questions/submit/", apis.QuestionSubmitApi.as_view(), name="question_submit"),
    path("rounds/<int:round_id>/stats/", apis.RoundStatsApi.as_view(), name="round_stats"),
    # Courses (courses/apis.py), a course's rounds (collector/course_apis.py, round_apis.py)
    path("courses/", courses_apis.CourseListApi.as_view(), name="course_list"),
    path("courses/create/", courses_apis.CourseCreateApi.as_view(), name="course_create"),
    path("courses/<int:course_id>/", course_apis.CourseDetailApi.as_view(), name="course_detail"),
    path("courses/<int:course_id>/students/", courses_apis.CourseStudentListApi.as_view(), name="course_students"),
    path("courses/<int:course_id>/rounds/create/", course_apis.RoundCreateApi.as_view(), name="round_create"),
    path("rounds/open/", course_apis.RoundOpenListApi.as_view(), name="round_open_list"),
    path("rounds/<int:round_id>/", round_apis.RoundDetailApi.as_view(), name="round_detail"),
    path("rounds/<int:round_id>/questions/", round_apis.RoundQuestionListApi.as_view(), name="round_questions"),
    path("rounds/<int:round_id>/settings/", round_apis.RoundSettingsApi.as_view(), name="round_settings"),
    path("rounds/<int:round_id>/settings/update/", round_apis.RoundSettingsUpdateApi.as_view(),
         name="round_settings_update"),
    path("rounds/<int:round_id>/duplicates/", round_apis.RoundDuplicatesApi.as_view(), name="round_duplicates"),
    # Files: grades and CODAH import (collector/data_apis.py); the CODAH export, round_export, is
    # evaluation's (evaluation/export_urls.py, added here by config/urls.py).
    path("rounds/<int:round_id>/grades/", data_apis.RoundGradesApi.as_view(), name="round_grades"),
    path("rounds/<int:round_id>/import/", data_apis.RoundImportApi.as_view(), name="round_import"),
    # Long jobs: scoring, training, the coach's answer-only model (collector/job_apis.py)
    path("rounds/<int:round_id>/scoring/start/", job_apis.ScoringStartApi.as_view(), name="scoring_start"),
    path("rounds/<int:round_id>/scoring/runs/", job_apis.ScoringRunListApi.as_view(), name="scoring_run_list"),
    path("scoring/runs/<int:run_id>/", job_apis.ScoringRunDetailApi.as_view(), name="scoring_run_detail"),
    path("scoring/runs/<int:run_id>/cancel/", scoring_control_apis.ScoringRunCancelApi.as_view(),
         name="scoring_run_cancel"),
    path("scoring/runs/<int:run_id>/resume/", scoring_control_apis.ScoringRunResumeApi.as_view(),
         name="scoring_run_resume"),
    path("rounds/<int:round_id>/training/start/", job_apis.TrainingStartApi.as_view(), name="training_start"),
    path("rounds/<int:round_id>/training/jobs/", job_apis.TrainingJobListApi.as_view(), name="training_job_list"),
    path("training/jobs/<int:job_id>/", job_apis.TrainingJobDetailApi.as_view(), name="training_job_detail"),
    path("rounds/<int:round_id>/answer-only-model/train/", job_apis.AnswerOnlyModelTrainApi.as_view(),
         name="answer_only_model_train"),
    # Question quality (collector/validation_apis.py)
    path("validation/next/", validation_apis.ValidationNextApi.as_view(), name="validation_next"),
    path("validation/submit/", validation_apis.ValidationSubmitApi.as_view(), name="validation_submit"),
    path("review/", validation_apis.ReviewQueueApi.as_view(), name="review_queue"),
    path("questions/<int:question_id>/review/", validation_apis.QuestionReviewApi.as_view(), name="question_review"),
    path("questions/<int:question_id>/appeal/", validation_apis.AppealSubmitApi.as_view(), name="appeal_submit"),
    path("appeals/<int:appeal_id>/decide/", validation_apis.AppealDecideApi.as_view(), name="appeal_decide"),
    path("rounds/<int:round_id>/quality/", validation_apis.RoundQualityApi.as_view(), name="round_quality"),
    path("rounds/<int:round_id>/quality/settings/", validation_apis.RoundQualitySettingsUpdateApi.as_view(),
         name="round_quality_settings"),
]
