from django.urls import path

from lti.views import config, context_link, deep_link, grades, launch, platforms, roster

app_name = "lti"

urlpatterns = [
    path("login/", launch.lti_login, name="login"),
    path("launch/", launch.lti_launch, name="launch"),
    path("jwks/", launch.lti_jwks, name="jwks"),
    path("config/canvas.json", config.canvas_config, name="canvas_config"),
    path("platforms/", platforms.platform_list, name="platforms"),
    path("platforms/<int:platform_id>/edit/", platforms.platform_edit, name="platform_edit"),
    path("platforms/<int:platform_id>/delete/", platforms.platform_remove, name="platform_delete"),
    path("rounds/<int:round_id>/grades/resend/", grades.round_grades_resend, name="round_grades_resend"),
    path("projects/<int:project_id>/grades/resend/", grades.project_grades_resend, name="project_grades_resend"),
    path("courses/<int:course_id>/roster/", roster.course_roster, name="course_roster"),
    path("courses/<int:course_id>/roster/sync/", roster.course_roster_sync, name="course_roster_sync"),
    path("launches/<str:launch_id>/course/", context_link.context_link, name="context_link"),
    path("launches/<str:launch_id>/deep-link/", deep_link.deep_link, name="deep_link"),
]
