from django.urls import path

from evaluation.views import releases as release_views
from evaluation.views import reports as views

app_name = "evaluation"
urlpatterns = [
    path("rounds/<int:round_id>/", views.round_report, name="round_report"),
    path("rounds/<int:round_id>/start/", views.round_report_start, name="round_report_start"),
    path("projects/<int:project_id>/", views.project_report, name="project_report"),
    path("projects/<int:project_id>/start/", views.project_report_start, name="project_report_start"),
    path("rounds/<int:round_id>/release.zip", release_views.round_release_download, name="round_release"),
    path("projects/<int:project_id>/release.zip", release_views.project_release_download, name="project_release"),
    path("runs/<int:run_id>/", views.run_detail, name="run_detail"),
    path("runs/<int:run_id>.json", views.run_json_download, name="run_json"),
    path("runs/<int:run_id>/sections/<slug:section>/tables/<slug:table>.csv", views.run_table_csv,
         name="run_table_csv"),
]

# Leaderboards and vMER (evaluation/leaderboard_views.py).
from evaluation.views import leaderboards as leaderboard_views  # noqa: E402

urlpatterns += [
    path("rounds/<int:round_id>/leaderboard/", leaderboard_views.round_leaderboard, name="round_leaderboard"),
    path("rounds/<int:round_id>/leaderboard/evaluate/", leaderboard_views.round_leaderboard_evaluate,
         name="round_leaderboard_evaluate"),
    path("rounds/<int:round_id>/leaderboard.csv", leaderboard_views.round_leaderboard_csv,
         name="round_leaderboard_csv"),
    path("rounds/<int:round_id>/leaderboard.json", leaderboard_views.round_leaderboard_json,
         name="round_leaderboard_json"),
    path("projects/<int:project_id>/leaderboard/", leaderboard_views.project_leaderboard, name="project_leaderboard"),
    path("projects/<int:project_id>/leaderboard/evaluate/", leaderboard_views.project_leaderboard_evaluate,
         name="project_leaderboard_evaluate"),
    path("projects/<int:project_id>/leaderboard.csv", leaderboard_views.project_leaderboard_csv,
         name="project_leaderboard_csv"),
    path("projects/<int:project_id>/leaderboard.json", leaderboard_views.project_leaderboard_json,
         name="project_leaderboard_json"),
    path("model-evaluations/<int:evaluation_id>.json", leaderboard_views.model_evaluation_json,
         name="model_evaluation_json"),
]
