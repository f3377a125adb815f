from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from accounts.forms import RateLimitedAdminAuthenticationForm
from config.views import healthz, metrics
from core.views import home, javascript_catalog, job_push_relay

admin.site.login_form = RateLimitedAdminAuthenticationForm
# With DEBUG off (as the start script and production run): 403 and 500 are Django's own handlers
# with templates/403.html and 500.html; a 404 shows the reason the code gave, if any.
handler404 = "config.views.page_not_found"


urlpatterns = [
    # Each URL name is in the namespace of the app that serves it; an app that serves paths beside another
    # app's (courses: /accounts/signup/; evaluation: the weighted exports) is included from the root.
    path("", home, name="home"),  # where each role starts (core.registry's "home" links)
    path("healthz/", healthz, name="healthz"),
    path("metrics", metrics, name="metrics"),  # Prometheus: staff or STUMPER_METRICS_TOKEN (core.metrics)
    path("internal/jobs/push/", job_push_relay, name="job_push_relay"),  # a worker's pushes (core.job_relay)
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the crowdworker's language switch
    path("jsi18n/<str:language>.js", javascript_catalog, name="javascript_catalog"),  # static/js/lib/i18n.js
    # OpenAPI 3 schema of every /api/ endpoint, and browsable docs generated from it.
    path("api/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    # The split view serves Swagger UI's start-up script as a file (?script), not inline (the CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api_schema"), name="api_docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api_schema"), name="api_redoc"),
    path("api/courses/", include("courses.api_urls")),
    path("api/", include("evaluation.api_urls")),  # /api/evaluation/, and the weighted exports' paths
    path("api/", include("collector.api_urls")),
    path("api/annotation/", include("annotation.api_urls")),
    path("api/models/", include("modelhub.api_urls")),
    path("api/lti/", include("lti.api_urls")),
    path("lti/", include("lti.urls")),
    path("annotation/", include("annotation.urls")),
    path("", include("evaluation.urls")),  # /evaluation/, and the project's SQuAD download
    path("inbox/", include("inbox.urls")),
    path("", include("courses.urls")),  # /courses/ (a course's own page is the collector's), /accounts/signup/
    # The crowdworkers' old start address, for bookmarks: their task list is the annotation app's.
    path("crowd/", RedirectView.as_view(pattern_name="annotation:task_list"), name="crowd_home"),
    path("", include("collector.urls")),
]
