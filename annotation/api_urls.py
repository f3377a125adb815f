from django.urls import path

from annotation import apis

app_name = "annotation_api"
urlpatterns = [
    path("projects/<int:project_id>/next/", apis.TaskNextApi.as_view(), name="task_next"),
    path("projects/<int:project_id>/stats/", apis.ProjectStatsApi.as_view(), name="project_stats"),
    path("projects/<int:project_id>/export/", apis.ProjectExportApi.as_view(), name="project_export"),
    path("sessions/<int:session_id>/", apis.SessionDetailApi.as_view(), name="session_detail"),
    path("sessions/<int:session_id>/draft/", apis.SessionDraftSaveApi.as_view(), name="session_draft"),
    path("sessions/<int:session_id>/questions/", apis.QuestionAddApi.as_view(), name="question_add"),
    path("sessions/<int:session_id>/submit/", apis.SessionSubmitApi.as_view(), name="session_submit"),
    path("sessions/<int:session_id>/discard/", apis.SessionDiscardApi.as_view(), name="session_discard"),
    path("sessions/<int:session_id>/answers/", apis.SecondPassAnswerApi.as_view(), name="second_pass_answer"),
    path("questions/<int:question_id>/update/", apis.QuestionUpdateApi.as_view(), name="question_update"),
    path("questions/<int:question_id>/delete/", apis.QuestionDeleteApi.as_view(), name="question_delete"),
]
