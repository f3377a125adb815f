from django.contrib import admin
from django.urls import include, path

from collector.views import home

urlpatterns = [
    path("", home, name="home"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("api/", include("collector.api_urls")),
    path("api/annotation/", include("annotation.api_urls")),
    path("api/evaluation/", include("evaluation.api_urls")),
    path("annotation/", include("annotation.urls")),
    path("evaluation/", include("evaluation.urls")),
    path("", include("collector.urls")),
]
