"""The evaluation app's JSON API (names ``evaluation_api:*``), served from ``/api/``: under
``/api/evaluation/``, and the weighted exports at their old paths (``evaluation/export_urls.py``). An
operation on rounds and projects has a view per target (each documents its own), routed in pairs."""
from django.urls import include, path

from evaluation import export_urls
from evaluation.apis import ambiguity_datasets, leaderboards, releases, reports
from evaluation.urls import for_rounds_and_projects

app_name = "evaluation_api"
report_urlpatterns = [
    *for_rounds_and_projects("runs/", "run_list", reports.EvaluationRunListApi.as_view(),
                             reports.EvaluationProjectRunListApi.as_view()),
    *for_rounds_and_projects("runs/start/", "run_start", reports.EvaluationRunStartApi.as_view(),
                             reports.EvaluationProjectRunStartApi.as_view()),
    path("runs/<int:run_id>/", reports.EvaluationRunDetailApi.as_view(), name="run_detail"),
    path("runs/<int:run_id>/sections/<slug:section>/tables/<slug:table>/", reports.EvaluationRunTableCsvApi.as_view(),
         name="run_table_csv"),
    path("projects/<int:project_id>/ambiguity-datasets/", ambiguity_datasets.AmbiguityDatasetListApi.as_view(),
         name="project_ambiguity_dataset_list"),
    *for_rounds_and_projects("release/", "release", releases.RoundReleaseApi.as_view(),
                             releases.ProjectReleaseApi.as_view()),
    *for_rounds_and_projects("leaderboard/", "leaderboard", leaderboards.RoundLeaderboardApi.as_view(),
                             leaderboards.ProjectLeaderboardApi.as_view()),
    *for_rounds_and_projects("leaderboard/csv/", "leaderboard_csv", leaderboards.RoundLeaderboardCsvApi.as_view(),
                             leaderboards.ProjectLeaderboardCsvApi.as_view()),
    *for_rounds_and_projects("leaderboard/evaluate/", "model_evaluation_start",
                             leaderboards.RoundModelEvaluationStartApi.as_view(),
                             leaderboards.ProjectModelEvaluationStartApi.as_view()),
    path("model-evaluations/<int:evaluation_id>/", leaderboards.ModelEvaluationDetailApi.as_view(),
         name="model_evaluation_detail"),
    path("courses/<int:course_id>/vmer/", leaderboards.CourseVmerApi.as_view(), name="course_vmer"),
]
urlpatterns = [
    path("evaluation/", include(report_urlpatterns)),
    *export_urls.api_urlpatterns,
]
