from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from accounts import urls as account_urls
from accounts.forms import RateLimitedAdminAuthenticationForm
from annotation import api_urls as annotation_api_urls
from annotation import urls as annotation_urls
from collector import api_urls as collector_api_urls
from collector.views.home import home
from config.views import healthz
from courses import views as course_views
from evaluation import export_urls

admin.site.login_form = RateLimitedAdminAuthenticationForm
# With DEBUG off (as the start script and production run): 403 and 500 are Django's own handlers
# with templates/403.html and 500.html; a 404 shows the reason the code gave, if any.
handler404 = "config.views.page_not_found"


def app_urls(module, *extra):
    """``include(module)`` with ``extra`` patterns of an app above it, under the module's URL names."""
    return include(([*module.urlpatterns, *extra], module.app_name))


urlpatterns = [
    path("", home, name="home"),
    path("healthz/", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # Signing up is joining a course (courses), under the accounts: URL names the pages know.
    path("accounts/", app_urls(account_urls, path("signup/", course_views.signup, name="signup"))),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the crowdworker's language switch
    # OpenAPI 3 schema of every /api/ endpoint, and browsable docs generated from it.
    path("api/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    # The split view serves Swagger UI's start-up script as a file (?script), not inline (the CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api_schema"), name="api_docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api_schema"), name="api_redoc"),
    # The weighted exports are evaluation's views under the collector's and annotation's URLs and
    # names (evaluation/export_urls.py).
    path("api/", app_urls(collector_api_urls, *export_urls.round_api_urlpatterns)),
    path("api/annotation/", app_urls(annotation_api_urls, *export_urls.project_api_urlpatterns)),
    path("api/evaluation/", include("evaluation.api_urls")),
    path("api/models/", include("modelhub.api_urls")),
    path("api/lti/", include("lti.api_urls")),
    path("lti/", include("lti.urls")),
    path("annotation/", app_urls(annotation_urls, *export_urls.project_urlpatterns)),
    path("evaluation/", include("evaluation.urls")),
    path("inbox/", include("inbox.urls")),
    path("courses/", include("courses.urls")),  # teaching staff; the course pages are the collector's below
    path("", include("collector.urls")),
]
