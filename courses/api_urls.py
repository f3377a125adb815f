"""The courses app's JSON API (names ``courses_api:*``), under ``/api/courses/`` (``courses/apis.py``). A
course with its rounds (``/api/courses/<id>/``) and creating a round are the collector's (``api:*``)."""
from django.urls import path

from courses import apis

app_name = "courses_api"
urlpatterns = [
    path("", apis.CourseListApi.as_view(), name="course_list"),
    path("create/", apis.CourseCreateApi.as_view(), name="course_create"),
    path("<int:course_id>/students/", apis.CourseStudentListApi.as_view(), name="course_students"),
]
