from django.urls import path

from collector import scoring_control_views, validation_views, views
from courses import student_password_views
from courses import views as course_views

app_name = "collector"
urlpatterns = [
    path("dashboard/", views.dashboard, name="dashboard"),
    path("crowd/", views.crowd_home, name="crowd_home"),
    path("courses/", course_views.course_list, name="course_list"),
    path("courses/<int:course_id>/", views.course_detail, name="course_detail"),
    path("courses/<int:course_id>/students/<int:student_id>/password-reset/",
         student_password_views.student_password_reset, name="student_password_reset"),
    path("rounds/<int:round_id>/", views.round_detail, name="round_detail"),
    path("rounds/<int:round_id>/write/", views.round_write, name="round_write"),
    path("rounds/<int:round_id>/settings/", views.round_settings_edit, name="round_settings"),
    path("rounds/<int:round_id>/scoring/", views.round_scoring_start, name="round_scoring_start"),
    path("scoring/runs/<int:run_id>/cancel/", scoring_control_views.scoring_run_cancel, name="scoring_run_cancel"),
    path("scoring/runs/<int:run_id>/resume/", scoring_control_views.scoring_run_resume, name="scoring_run_resume"),
    path("rounds/<int:round_id>/train/", views.round_model_train, name="round_model_train"),
    path("rounds/<int:round_id>/grades.csv", views.round_grades_download, name="round_grades_download"),
    # Question quality: blind validation, the owner's review, appeals, the report and the coach's model.
    path("validate/", validation_views.validate, name="validate"),
    path("rounds/<int:round_id>/review/", validation_views.review_queue, name="review_queue"),
    path("rounds/<int:round_id>/quality/", validation_views.round_quality, name="round_quality"),
    path("rounds/<int:round_id>/answer-only-model/", validation_views.round_answer_only_model,
         name="round_answer_only_model"),
    path("questions/<int:question_id>/review/", validation_views.question_review, name="question_review"),
    path("questions/<int:question_id>/appeal/", validation_views.appeal_submit, name="appeal_submit"),
    path("appeals/<int:appeal_id>/decide/", validation_views.appeal_decide, name="appeal_decide"),
]
