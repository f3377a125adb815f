"""Pages of the courses app (``courses:*``), served from the site's root: the course list, a course's
teaching staff, a student's password reset, and the student sign-up at ``/accounts/signup/`` (signing up
is joining a course). A course's own page, with its rounds, is the collector's (``collector:course_detail``
at ``/courses/<id>/``; this app links to it through ``core.registry``'s ``course_page`` link)."""
from django.urls import path

from courses import staff_views, student_password_views, views

app_name = "courses"
urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("courses/", views.course_list, name="course_list"),
    path("courses/<int:course_id>/students/<int:student_id>/password-reset/",
         student_password_views.student_password_reset, name="student_password_reset"),
    path("courses/<int:course_id>/staff/", staff_views.course_staff, name="course_staff"),
    path("courses/<int:course_id>/staff/<int:user_id>/remove/", staff_views.course_staff_remove,
         name="course_staff_remove"),
    path("courses/<int:course_id>/instructor-invite/", staff_views.instructor_invite, name="instructor_invite"),
    path("courses/instructor-invite/<str:token>/", staff_views.instructor_invite_join,
         name="instructor_invite_join"),
]
