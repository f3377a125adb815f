from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from accounts import urls as account_urls
from accounts.forms import RateLimitedAdminAuthenticationForm
from collector.views import home
from config.views import healthz
from courses import views as course_views

admin.site.login_form = RateLimitedAdminAuthenticationForm

urlpatterns = [
    path("", home, name="home"),
    path("healthz/", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # Signing up is joining a course (courses), under the accounts: URL names the pages know.
    path("accounts/", include(([*account_urls.urlpatterns,
                                path("signup/", course_views.signup, name="signup")], account_urls.app_name))),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the crowdworker's language switch
    # OpenAPI 3 schema of every /api/ endpoint, and browsable docs generated from it.
    path("api/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api_schema"), name="api_docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api_schema"), name="api_redoc"),
    path("api/", include("collector.api_urls")),
    path("api/annotation/", include("annotation.api_urls")),
    path("api/evaluation/", include("evaluation.api_urls")),
    path("api/lti/", include("lti.api_urls")),
    path("lti/", include("lti.urls")),
    path("annotation/", include("annotation.urls")),
    path("evaluation/", include("evaluation.urls")),
    path("inbox/", include("inbox.urls")),
    path("", include("collector.urls")),
]
