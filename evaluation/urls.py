"""Pages and downloads of the evaluation app (names ``evaluation:*``), served from the site's root: under
``/evaluation/``, and the project's SQuAD download at its old path (``evaluation/export_urls.py``). A report,
a release and a leaderboard exist for a collector round and an annotation project alike: one view serves
both."""
from django.urls import URLPattern, include, path

from evaluation import export_urls
from evaluation.views import leaderboards, releases, reports

app_name = "evaluation"


def for_rounds_and_projects(route: str, name: str, view, project_view=None, **kwargs) -> list[URLPattern]:
    """``rounds/<round_id>/<route>`` named ``round_<name>`` and ``projects/<project_id>/<route>``
    named ``project_<name>``: one view for both (``project_view`` when the project has its own),
    with ``kwargs`` passed to the view."""
    return [path(f"rounds/<int:round_id>/{route}", view, kwargs, name=f"round_{name}"),
            path(f"projects/<int:project_id>/{route}", project_view or view, kwargs, name=f"project_{name}")]


report_urlpatterns = [
    *for_rounds_and_projects("", "report", reports.report_page),
    *for_rounds_and_projects("start/", "report_start", reports.report_start),
    path("runs/<int:run_id>/", reports.run_detail, name="run_detail"),
    path("runs/<int:run_id>.json", reports.run_json_download, name="run_json"),
    path("runs/<int:run_id>/sections/<slug:section>/tables/<slug:table>.csv", reports.run_table_csv,
         name="run_table_csv"),
    *for_rounds_and_projects("release.zip", "release", releases.release_download),
    *for_rounds_and_projects("leaderboard/", "leaderboard", leaderboards.leaderboard_page),
    *for_rounds_and_projects("leaderboard/evaluate/", "leaderboard_evaluate", leaderboards.leaderboard_evaluate),
    *for_rounds_and_projects("leaderboard.csv", "leaderboard_csv", leaderboards.leaderboard_download, file_format="csv"),
    *for_rounds_and_projects("leaderboard.json", "leaderboard_json", leaderboards.leaderboard_download,
                             file_format="json"),
    path("model-evaluations/<int:evaluation_id>.json", leaderboards.model_evaluation_json,
         name="model_evaluation_json"),
]
urlpatterns = [
    path("evaluation/", include(report_urlpatterns)),
    *export_urls.page_urlpatterns,
]
