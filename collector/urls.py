from django.urls import path

from collector import views

app_name = "collector"
urlpatterns = [
    path("dashboard/", views.dashboard, name="dashboard"),
    path("crowd/", views.crowd_home, name="crowd_home"),
    path("courses/", views.course_list, name="course_list"),
    path("courses/<int:course_id>/", views.course_detail, name="course_detail"),
    path("rounds/<int:round_id>/", views.round_detail, name="round_detail"),
    path("rounds/<int:round_id>/write/", views.round_write, name="round_write"),
    path("rounds/<int:round_id>/settings/", views.round_settings_edit, name="round_settings"),
    path("rounds/<int:round_id>/scoring/", views.round_scoring_start, name="round_scoring_start"),
    path("rounds/<int:round_id>/train/", views.round_model_train, name="round_model_train"),
    path("rounds/<int:round_id>/grades.csv", views.round_grades_download, name="round_grades_download"),
]
