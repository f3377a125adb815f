"""URLs of the weighted dataset exports, which keep the prefixes and names they have always had.

The views are evaluation's because they read evaluation reports (the weights); the URLs belong to
the pages and APIs of the round and the project. ``config/urls.py`` adds each list to that app's
URL module, so ``{% url 'annotation:project_export' %}`` and ``reverse("api:round_export")`` work
as before.
"""
from django.urls import path

from evaluation.apis import exports as export_apis
from evaluation.views import exports as export_views

# Under /api/ with collector/api_urls.py (names api:*).
round_api_urlpatterns = [
    path("rounds/<int:round_id>/export/", export_apis.RoundExportApi.as_view(), name="round_export"),
]
# Under /annotation/ with annotation/urls.py (names annotation:*).
project_urlpatterns = [
    path("projects/<int:project_id>/export/", export_views.project_export, name="project_export"),
]
# Under /api/annotation/ with annotation/api_urls.py (names annotation_api:*).
project_api_urlpatterns = [
    path("projects/<int:project_id>/export/", export_apis.ProjectExportApi.as_view(), name="project_export"),
]
