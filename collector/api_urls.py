"""The collector's JSON API under ``/api/`` (names ``api:*``), grouped by the object each URL starts
from: a course, a round, a scoring run, a question."""
from django.urls import include, path

from collector.apis import (
    coach,
    duplicates,
    grades,
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
from courses import apis as courses_apis

# courses/<id>/: the course (courses/apis.py) and its rounds (collector/apis/rounds.py)
course_patterns = [
    path("", rounds.CourseDetailApi.as_view(), name="course_detail"),
    path("students/", courses_apis.CourseStudentListApi.as_view(), name="course_students"),
    path("rounds/create/", rounds.RoundCreateApi.as_view(), name="round_create"),
]
# rounds/<id>/
round_patterns = [
    path("", rounds.RoundDetailApi.as_view(), name="round_detail"),
    path("stats/", rounds.RoundStatsApi.as_view(), name="round_stats"),
    path("questions/", rounds.RoundQuestionListApi.as_view(), name="round_questions"),
    path("settings/", round_settings.RoundSettingsApi.as_view(), name="round_settings"),
    path("settings/update/", round_settings.RoundSettingsUpdateApi.as_view(), name="round_settings_update"),
    path("duplicates/", duplicates.RoundDuplicatesApi.as_view(), name="round_duplicates"),
    # Files: grades and CODAH import (collector/apis/grades.py, imports.py); the CODAH export, round_export, is
    # evaluation's (evaluation/export_urls.py, added here by config/urls.py).
    path("grades/", grades.RoundGradesApi.as_view(), name="round_grades"),
    path("import/", imports.RoundImportApi.as_view(), name="round_import"),
    # Long jobs: scoring, training (collector/apis/scoring.py, training.py), the coach's answer-only model (coach.py)
    path("scoring/start/", scoring.ScoringStartApi.as_view(), name="scoring_start"),
    path("scoring/runs/", scoring.ScoringRunListApi.as_view(), name="scoring_run_list"),
    path("training/start/", training.TrainingStartApi.as_view(), name="training_start"),
    path("training/jobs/", training.TrainingJobListApi.as_view(), name="training_job_list"),
    path("answer-only-model/train/", coach.AnswerOnlyModelTrainApi.as_view(), name="answer_only_model_train"),
    # Question quality (collector/apis/quality.py; its settings in round_settings.py)
    path("quality/", quality.RoundQualityApi.as_view(), name="round_quality"),
    path("quality/settings/", round_settings.RoundQualitySettingsUpdateApi.as_view(), name="round_quality_settings"),
]
# scoring/runs/<id>/
scoring_run_patterns = [
    path("", scoring.ScoringRunDetailApi.as_view(), name="scoring_run_detail"),
    path("cancel/", scoring.ScoringRunCancelApi.as_view(), name="scoring_run_cancel"),
    path("resume/", scoring.ScoringRunResumeApi.as_view(), name="scoring_run_resume"),
]
# questions/<id>/: the owner's review and the author's appeal (collector/apis/reviews.py)
question_patterns = [
    path("review/", reviews.QuestionReviewApi.as_view(), name="question_review"),
    path("appeal/", reviews.AppealSubmitApi.as_view(), name="appeal_submit"),
]

app_name = "api"
urlpatterns = [
    path("questions/", questions.QuestionListApi.as_view(), name="question_list"),
    path("questions/submit/", questions.QuestionSubmitApi.as_view(), name="question_submit"),
    path("questions/<int:question_id>/", include(question_patterns)),
    path("courses/", courses_apis.CourseListApi.as_view(), name="course_list"),
    path("courses/create/", courses_apis.CourseCreateApi.as_view(), name="course_create"),
    path("courses/<int:course_id>/", include(course_patterns)),
    path("rounds/open/", rounds.RoundOpenListApi.as_view(), name="round_open_list"),
    path("rounds/<int:round_id>/", include(round_patterns)),
    path("scoring/runs/<int:run_id>/", include(scoring_run_patterns)),
    path("training/jobs/<int:job_id>/", training.TrainingJobDetailApi.as_view(), name="training_job_detail"),
    # Question quality: blind validation (collector/apis/validation.py), the review queue and appeals (reviews.py)
    path("validation/next/", validation.ValidationNextApi.as_view(), name="validation_next"),
    path("validation/submit/", validation.ValidationSubmitApi.as_view(), name="validation_submit"),
    path("review/", reviews.ReviewQueueApi.as_view(), name="review_queue"),
    path("appeals/<int:appeal_id>/decide/", reviews.AppealDecideApi.as_view(), name="appeal_decide"),
]
