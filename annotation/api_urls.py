"""The annotation app's JSON API under ``/api/annotation/`` (names ``annotation_api:*``): ``apis/<concern>.py``
per line."""
from django.urls import path

from annotation.apis import (
    authoring,
    imports,
    participants,
    projects,
    reviews,
    second_pass,
    session_time,
    stats,
    worker_home,
)

app_name = "annotation_api"
# The SQuAD export at projects/<id>/export/ is evaluation's (evaluation_api:project_export,
# evaluation/export_urls.py).
urlpatterns = [
    path("tasks/", worker_home.TaskListApi.as_view(), name="task_list"),
    path("projects/", projects.ProjectListApi.as_view(), name="project_list"),
    path("projects/create/", projects.ProjectCreateApi.as_view(), name="project_create"),
    path("projects/<int:project_id>/settings/", projects.ProjectSettingsApi.as_view(), name="project_settings"),
    path("projects/<int:project_id>/settings/update/", projects.ProjectSettingsUpdateApi.as_view(),
         name="project_settings_update"),
    path("projects/<int:project_id>/import/articles/", imports.ArticleImportApi.as_view(),
         name="project_import_articles"),
    path("projects/<int:project_id>/import/squad/", imports.SquadImportApi.as_view(), name="project_import_squad"),
    path("projects/<int:project_id>/paragraphs/", reviews.ParagraphListApi.as_view(), name="project_paragraphs"),
    path("paragraphs/<int:paragraph_id>/restore/", reviews.ParagraphRestoreApi.as_view(), name="paragraph_restore"),
    path("projects/<int:project_id>/flags/", reviews.FlagListApi.as_view(), name="project_flags"),
    path("flags/<int:flag_id>/resolve/", reviews.FlagResolveApi.as_view(), name="flag_resolve"),
    path("projects/<int:project_id>/participants/", participants.ParticipantListApi.as_view(),
         name="project_participants"),
    path("projects/<int:project_id>/participants/<int:participant_id>/export/",
         participants.ParticipantExportApi.as_view(), name="participant_data_export"),
    path("projects/<int:project_id>/participants/<int:participant_id>/delete/",
         participants.ParticipantDeleteApi.as_view(), name="participant_data_delete"),
    path("projects/<int:project_id>/next/", worker_home.TaskNextApi.as_view(), name="task_next"),
    path("projects/<int:project_id>/stats/", stats.ProjectStatsApi.as_view(), name="project_stats"),
    path("sessions/<int:session_id>/", authoring.SessionDetailApi.as_view(), name="session_detail"),
    path("sessions/<int:session_id>/heartbeat/", session_time.SessionHeartbeatApi.as_view(), name="session_heartbeat"),
    path("sessions/<int:session_id>/draft/", authoring.SessionDraftSaveApi.as_view(), name="session_draft"),
    path("sessions/<int:session_id>/questions/", authoring.QuestionAddApi.as_view(), name="question_add"),
    path("sessions/<int:session_id>/submit/", authoring.SessionSubmitApi.as_view(), name="session_submit"),
    path("sessions/<int:session_id>/discard/", authoring.SessionDiscardApi.as_view(), name="session_discard"),
    path("sessions/<int:session_id>/answers/", second_pass.SecondPassAnswerApi.as_view(), name="second_pass_answer"),
    path("sessions/<int:session_id>/flags/", second_pass.SecondPassFlagApi.as_view(), name="second_pass_flag"),
    path("questions/<int:question_id>/update/", authoring.QuestionUpdateApi.as_view(), name="question_update"),
    path("questions/<int:question_id>/delete/", authoring.QuestionDeleteApi.as_view(), name="question_delete"),
]
