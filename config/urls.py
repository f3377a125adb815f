from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from accounts.forms import RateLimitedAdminAuthenticationForm
from collector.views import home
from config.views import healthz

admin.site.login_form = RateLimitedAdminAuthenticationForm

urlpatterns = [
    path("", home, name="home"),
    path("healthz/", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    # OpenAPI 3 schema of every /api/ endpoint, and browsable docs generated from it.
    path("api/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api_schema"), name="api_docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api_schema"), name="api_redoc"),
    path("api/", include("collector.api_urls")),
    path("api/annotation/", include("annotation.api_urls")),
    path("api/evaluation/", include("evaluation.api_urls")),
    path("annotation/", include("annotation.urls")),
    path("evaluation/", include("evaluation.urls")),
    path("", include("collector.urls")),
]
