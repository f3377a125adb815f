from django.urls import path

from evaluation.apis import ambiguity_datasets
from evaluation.apis import releases as release_apis
from evaluation.apis import reports as apis

app_name = "evaluation_api"
urlpatterns = [
    path("rounds/<int:round_id>/runs/", apis.EvaluationRunListApi.as_view(), name="round_run_list"),
    path("rounds/<int:round_id>/runs/start/", apis.EvaluationRunStartApi.as_view(), name="round_run_start"),
    path("projects/<int:project_id>/runs/", apis.EvaluationProjectRunListApi.as_view(), name="project_run_list"),
    path("projects/<int:project_id>/runs/start/", apis.EvaluationProjectRunStartApi.as_view(), name="project_run_start"),
    path("projects/<int:project_id>/ambiguity-datasets/", ambiguity_datasets.AmbiguityDatasetListApi.as_view(),
         name="project_ambiguity_dataset_list"),
    path("rounds/<int:round_id>/release/", release_apis.RoundReleaseApi.as_view(), name="round_release"),
    path("projects/<int:project_id>/release/", release_apis.ProjectReleaseApi.as_view(), name="project_release"),
    path("runs/<int:run_id>/", apis.EvaluationRunDetailApi.as_view(), name="run_detail"),
    path("runs/<int:run_id>/sections/<slug:section>/tables/<slug:table>/", apis.EvaluationRunTableCsvApi.as_view(),
         name="run_table_csv"),
]

# Leaderboards and vMER (evaluation/leaderboard_apis.py).
from evaluation.apis import leaderboards as leaderboard_apis  # noqa: E402

urlpatterns += [
    path("rounds/<int:round_id>/leaderboard/", leaderboard_apis.RoundLeaderboardApi.as_view(), name="round_leaderboard"),
    path("rounds/<int:round_id>/leaderboard/csv/", leaderboard_apis.RoundLeaderboardCsvApi.as_view(),
         name="round_leaderboard_csv"),
    path("rounds/<int:round_id>/leaderboard/evaluate/", leaderboard_apis.RoundModelEvaluationStartApi.as_view(),
         name="round_model_evaluation_start"),
    path("projects/<int:project_id>/leaderboard/", leaderboard_apis.ProjectLeaderboardApi.as_view(),
         name="project_leaderboard"),
    path("projects/<int:project_id>/leaderboard/csv/", leaderboard_apis.ProjectLeaderboardCsvApi.as_view(),
         name="project_leaderboard_csv"),
    path("projects/<int:project_id>/leaderboard/evaluate/", leaderboard_apis.ProjectModelEvaluationStartApi.as_view(),
         name="project_model_evaluation_start"),
    path("model-evaluations/<int:evaluation_id>/", leaderboard_apis.ModelEvaluationDetailApi.as_view(),
         name="model_evaluation_detail"),
    path("courses/<int:course_id>/vmer/", leaderboard_apis.CourseVmerApi.as_view(), name="course_vmer"),
]
