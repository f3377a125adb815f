"""URLs of the weighted dataset exports, at the paths they have always had (a round's and a project's,
beside the collector's and annotation's), under evaluation's names: the views are evaluation's because
they read evaluation reports (the weights). ``evaluation/urls.py`` and ``evaluation/api_urls.py`` serve
them from the site's root and ``/api/``, so the names are ``evaluation:project_export``,
``evaluation_api:round_export`` and ``evaluation_api:project_export``.
"""
from django.urls import path

from evaluation.apis import exports as export_apis
from evaluation.views import exports as export_views

# From the site's root (evaluation/urls.py): the project dashboard's SQuAD download.
page_urlpatterns = [
    path("annotation/projects/<int:project_id>/export/", export_views.project_export, name="project_export"),
]
# Under /api/ (evaluation/api_urls.py): a round's CODAH export, a project's SQuAD JSON.
api_urlpatterns = [
    path("rounds/<int:round_id>/export/", export_apis.RoundExportApi.as_view(), name="round_export"),
    path("annotation/projects/<int:project_id>/export/", export_apis.ProjectExportApi.as_view(),
         name="project_export"),
]
