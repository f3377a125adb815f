"""Pages of a course's teaching staff (``courses:*``). The course list and a course's page keep
their ``collector:*`` names (``collector/urls.py``); these are new, so they live in their own app's
namespace, under the same ``/courses/`` prefix."""
from django.urls import path

from courses import staff_views

app_name = "courses"
urlpatterns = [
    path("<int:course_id>/staff/", staff_views.course_staff, name="course_staff"),
    path("<int:course_id>/staff/<int:user_id>/remove/", staff_views.course_staff_remove, name="course_staff_remove"),
    path("<int:course_id>/instructor-invite/", staff_views.instructor_invite, name="instructor_invite"),
    path("instructor-invite/<str:token>/", staff_views.instructor_invite_join, name="instructor_invite_join"),
]
