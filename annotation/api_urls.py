from django.urls import path

from annotation import apis, project_apis, review_apis, time_apis

app_name = "annotation_api"
# project_export (projects/<id>/export/, the SQuAD export) is evaluation's: evaluation/export_urls.py,
# added here by config/urls.py.
urlpatterns = [
    path("tasks/", project_apis.TaskListApi.as_view(), name="task_list"),
    path("projects/", project_apis.ProjectListApi.as_view(), name="project_list"),
    path("projects/create/", project_apis.ProjectCreateApi.as_view(), name="project_create"),
    path("projects/<int:project_id>/settings/", project_apis.ProjectSettingsApi.as_view(), name="project_settings"),
    path("projects/<int:project_id>/settings/update/", project_apis.ProjectSettingsUpdateApi.as_view(),
         name="project_settings_update"),
    path("projects/<int:project_id>/import/articles/", project_apis.ArticleImportApi.as_view(),
         name="project_import_articles"),
    path("projects/<int:project_id>/import/squad/", project_apis.SquadImportApi.as_view(), name="project_import_squad"),
    path("projects/<int:project_id>/paragraphs/", review_apis.ParagraphListApi.as_view(), name="project_paragraphs"),
    path("paragraphs/<int:paragraph_id>/restore/", review_apis.ParagraphRestoreApi.as_view(), name="paragraph_restore"),
    path("projects/<int:project_id>/flags/", review_apis.FlagListApi.as_view(), name="project_flags"),
    path("flags/<int:flag_id>/resolve/", review_apis.FlagResolveApi.as_view(), name="flag_resolve"),
    path("projects/<int:project_id>/next/", apis.TaskNextApi.as_view(), name="task_next"),
    path("projects/<int:project_id>/stats/", apis.ProjectStatsApi.as_view(), name="project_stats"),
    path("sessions/<int:session_id>/", apis.SessionDetailApi.as_view(), name="session_detail"),
    path("sessions/<int:session_id>/heartbeat/", time_apis.SessionHeartbeatApi.as_view(), name="session_heartbeat"),
    path("sessions/<int:session_id>/draft/", apis.SessionDraftSaveApi.as_view(), name="session_draft"),
    path("sessions/<int:session_id>/questions/", apis.QuestionAddApi.as_view(), name="question_add"),
    path("sessions/<int:session_id>/submit/", apis.SessionSubmitApi.as_view(), name="session_submit"),
    path("sessions/<int:session_id>/discard/", apis.SessionDiscardApi.as_view(), name="session_discard"),
    path("sessions/<int:session_id>/answers/", apis.SecondPassAnswerApi.as_view(), name="second_pass_answer"),
    path("sessions/<int:session_id>/flags/", apis.SecondPassFlagApi.as_view(), name="second_pass_flag"),
    path("questions/<int:question_id>/update/", apis.QuestionUpdateApi.as_view(), name="question_update"),
    path("questions/<int:question_id>/delete/", apis.QuestionDeleteApi.as_view(), name="question_delete"),
]
